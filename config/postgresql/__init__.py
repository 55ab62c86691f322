"""Django's PostgreSQL backend, answering at once while the database cannot be reached (see ``base``)."""
