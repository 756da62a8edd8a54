"""Words for people, in English, 繁體中文 and 简体中文: the catalogues and the language in force
(:mod:`~unoarena.text.i18n`), what the rules say at a rule set's values
(:mod:`~unoarena.text.rules`), and what happened in a game (:mod:`~unoarena.text.narrate`).
Above the engine, below every interface that shows text."""
