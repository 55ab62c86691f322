"""The pages of a tournament, by audience: ``public``, ``clock``, ``organiser`` and ``seating``; ``base``
holds what they share. Each view validates its input, authorises through ``access_tournament``, calls one
service and renders. See docs/pages.md."""
