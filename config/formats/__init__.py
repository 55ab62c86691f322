"""One way to write a day, a moment and a time of day per language (``FORMAT_MODULE_PATH``), used by
every page, export and message: Django's own formats mix several per language (English: "Nov. 28,
2026", "11/28/2026 1:13 p.m." and "1:11 a.m." on one page). Times are on the 24-hour clock, as the
schedules of tournaments are written, and in the venue's time zone (``Tournament.zone``)."""
