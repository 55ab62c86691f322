"""The tournament app's REST API (docs/api.md), a module per resource with its serializers beside its
views; ``base`` holds what they share. The routes are ``config/api.py``'s."""
