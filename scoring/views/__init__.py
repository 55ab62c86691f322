"""The score-sheet pages, by audience: ``referee`` (my tables, game logs, signing, corrections),
``sheet`` (a table's sheet and its editor, for a referee or a seated player) and ``players`` (the seated
players' confirmation or dispute); ``base`` holds what they share. Each view authorises, calls one service
of ``scoring.services`` and renders."""
