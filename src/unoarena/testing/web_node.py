"""One server process of a test cluster: ``python -m unoarena.testing.web_node PORT SCHEMA
CONFIG_JSON``.

The tests start several of these as real processes (and kill them with SIGKILL), on the test
PostgreSQL database in ``SCHEMA`` and the local Redis; the configuration is the tests' fast one.
"""

from __future__ import annotations

import json
import sys

import uvicorn

from ..web.app import create_app
from ..web.store import Store
from .web_server import fast_config, pg_url


def main() -> None:
    """Serve the app on ``PORT`` over the test database's ``SCHEMA`` until killed."""
    port, schema, raw = int(sys.argv[1]), sys.argv[2], sys.argv[3]
    url = pg_url()
    assert url is not None
    store = Store(url, schema=schema)
    app = create_app(fast_config(**json.loads(raw)), store=store)
    uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning", lifespan="on",
                ws_max_size=65536)


if __name__ == "__main__":
    main()
