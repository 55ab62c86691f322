"""The admin, as Django's own, with the login limits of ``config.auth`` (its ``AdminSite``)."""

from django.contrib.admin.apps import AdminConfig as DjangoAdminConfig


class AdminConfig(DjangoAdminConfig):
    default_site = "config.auth.AdminSite"
