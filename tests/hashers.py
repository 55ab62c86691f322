"""The suite's password hasher: Django's PBKDF2-SHA256 at a thousand iterations instead of a million.

Creating an account or signing in costs a quarter of a second with the real cost, and the suite does it
hundreds of times. The hashes keep the algorithm's name and carry their iteration count, so a server or
a worker the suite starts (with the product's settings) still checks them.
"""

from __future__ import annotations

from django.contrib.auth.hashers import PBKDF2PasswordHasher


class QuickPBKDF2PasswordHasher(PBKDF2PasswordHasher):
    iterations = 1_000
