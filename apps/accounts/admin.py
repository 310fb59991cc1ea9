from django.contrib import admin, messages
from django.contrib.auth.admin import UserAdmin as BaseUserAdmin
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from . import services
from .models import ResetLink, User


@admin.register(User)
class UserAdmin(BaseUserAdmin):
    fieldsets = (*BaseUserAdmin.fieldsets, (_("Préférences"), {"fields": ("language",)}))
    list_display = ("username", "first_name", "last_name", "email", "is_staff", "language")
    actions = ["make_reset_link"]

    @admin.action(description=_("Créer un lien de nouveau mot de passe (24 h, une fois)"))
    def make_reset_link(self, request, queryset):
        for user in queryset:
            token = services.reset_link_create(user=user, by=request.user)
            url = request.build_absolute_uri(reverse("accounts:reset_link", args=[token]))
            self.message_user(request, f"{user.username} : {url}", messages.SUCCESS)


@admin.register(ResetLink)
class ResetLinkAdmin(admin.ModelAdmin):
    """The log of one-time links: who made one for whom, when, and whether it was used."""

    list_display = ("user", "made_by", "created_at", "used_at")
    list_select_related = ("user", "made_by")
    readonly_fields = ("user", "made_by", "token_digest", "created_at", "used_at")

    def has_add_permission(self, request):
        return False
