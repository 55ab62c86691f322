// The series projector: its standings change when an event's do, seldom; the screen reloads once a
// minute, the room sees the standings at most a minute old.
"use strict";
setTimeout(() => window.location.reload(), 60 * 1000);
