"""Russian: 28 ноября 2026 г., 28 ноября 2026 г. 13:11, 13:11."""  # noqa: RUF002 (Cyrillic meant)

DATE_FORMAT = "j E Y г."  # noqa: RUF001 (the Cyrillic letter is meant)
SHORT_DATE_FORMAT = DATE_FORMAT
DATETIME_FORMAT = "j E Y г. H:i"  # noqa: RUF001
SHORT_DATETIME_FORMAT = DATETIME_FORMAT
TIME_FORMAT = "H:i"
