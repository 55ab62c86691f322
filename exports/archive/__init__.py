"""The tournament archive: ``fields`` (the format), ``dump`` (write one) and ``load`` (read one back)."""
