"""The forms of the tournament app's pages, by audience as the views are: the tournament's settings
(``settings``, its rules' fields in ``rules``), the organisers' (``organiser``), the event's day
(``day``), players signing up (``signup``), and the fields and widgets they share (``fields``,
``widgets``). They read and shape input; the services decide what is allowed."""
