"""The pages of a tournament, by audience: ``public``, ``clock``, ``organiser``, ``seating``, ``awards`` and
``ratings``; ``base`` holds what they share. Each view validates its input, authorises through
``access_tournament``, calls one service and renders. See docs/pages.md."""
