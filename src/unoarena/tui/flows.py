"""A screen whose questions are asked by flows (Textual workers) that open dialogs and wait for
the answers, and what becomes of the keys and clicks that arrive meanwhile.

People type ahead: a Wild's card key followed at once by the colour's letter reaches the screen
before the colour dialog is up. While a flow runs, keys are kept and handed to its next dialog;
when it ends without one they are replayed to the screen (two cards played fast); after a
dialog they are dropped (a key pressed twice). A click just after a dialog closed is ignored
(the second click of a double click on the dialog's button).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from textual import events, work
from textual.screen import Screen
from textual.worker import Worker, WorkerState

from .dialogs import ChoiceDialog, ClosesOnce

#: The worker groups that may open dialogs: while one runs, keys go to its dialogs.
FLOWS = frozenset({"choose", "ask"})
#: Seconds after a dialog closes during which clicks on the screen are ignored: the second
#: click of a double click on a dialog's button must not land on the card under it.
CLICK_GUARD = 0.3


class FlowScreen(Screen[None]):
    """See the module docstring. A flow runs in the worker group ``choose`` or ``ask``
    (:meth:`ask` is one) and opens its dialogs with :meth:`_ask`; other screens over this one
    open with :meth:`_push`."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._keys: list[events.Key] = []  # keys waiting for the next dialog of a flow
        self._flow_dialog = False  # the flows running now have shown a dialog
        self._closed_at = -CLICK_GUARD  # when a dialog of this screen last closed

    @property
    def asking(self) -> bool:
        """Whether a flow that may open dialogs (a card being played, a question the table asks)
        is running."""
        return any(w.node is self and w.group in FLOWS
                   and w.state in (WorkerState.PENDING, WorkerState.RUNNING)
                   for w in self.app.workers)

    def route_key(self, event: events.Key) -> None:
        """Where a key goes that arrived while the screen was not the one to take it: to the dialog
        of a running flow (a Wild's key followed fast by a colour letter); kept for its next dialog
        while one is on its way; otherwise nowhere (a key pressed twice on a dialog, or meant for
        the screen while something covered it)."""
        if not self.asking:
            return
        key = events.Key(event.key, event.character)
        key._set_forwarded()
        top = self.app.screen
        if isinstance(top, ChoiceDialog) and top.owner is self and not top.closed:
            (top.focused or top).post_message(key)
        elif top is self or (isinstance(top, ClosesOnce) and top.closed):
            self._keys.append(key)

    def dialog_closed(self) -> None:
        """A dialog of this screen closed: clicks on the screen wait a moment
        (:data:`CLICK_GUARD`)."""
        self._closed_at = time.monotonic()

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        """When the last running flow ends, the keys kept for a dialog that never came are
        replayed to the screen (two cards played fast); after a dialog they are dropped (a key
        pressed twice)."""
        if event.worker.group not in FLOWS or self.asking:
            return
        keys, self._keys = self._keys, []
        shown, self._flow_dialog = self._flow_dialog, False
        if not shown:
            for key in keys:
                self.post_message(key)

    async def _ask(self, dialog: ChoiceDialog) -> Any:
        """Open a dialog of a flow and wait for its answer; the keys typed while it was on its way
        go to it."""
        dialog.owner = self
        self._flow_dialog = True
        answer = self.app.push_screen(dialog, wait_for_dismiss=True)
        self._cover_if_small()
        keys, self._keys = self._keys, []
        for key in keys:
            dialog.post_message(key)
        return await answer

    @work(exclusive=True, group="ask")
    async def ask(self, dialog: ChoiceDialog, then: Callable[[Any], Any]) -> None:
        """Ask a person a question, and do ``then`` with the answer (nothing
        when the question is cancelled)."""
        pick = await self._ask(dialog)
        if pick is not None:
            then(pick)

    def _push(self, screen: Screen[Any], callback: Callable[[Any], None] | None = None) -> None:
        """Open a screen over this one (help, scores, a summary, a hand-over) as its owner."""
        if isinstance(screen, ClosesOnce):
            screen.owner = self
        self.app.push_screen(screen, callback)
        self._cover_if_small()

    def _cover_if_small(self) -> None:
        """A screen opened while the terminal is too small goes under the message that says so."""
        fit: Callable[[], None] | None = getattr(self.app, "fit_terminal", None)
        if fit is not None:
            fit()

    def _clicks_wait(self) -> bool:
        """Whether a click on the screen comes too soon after a dialog (or during a flow) to be
        meant for it."""
        return self.asking or time.monotonic() - self._closed_at < CLICK_GUARD
