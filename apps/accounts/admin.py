from django.contrib import admin, messages
from django.contrib.auth.admin import UserAdmin as BaseUserAdmin
from django.contrib.auth.forms import AdminPasswordChangeForm
from django.urls import reverse
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from . import services
from .models import ResetLink, User


class PasswordSetByStaffForm(AdminPasswordChangeForm):
    """A password set from the admin: the person is told, as after any reset."""

    def save(self, commit: bool = True):
        user = super().save(commit=commit)
        if commit:
            services.password_reset_told(user=user)
        return user


@admin.register(User)
class UserAdmin(BaseUserAdmin):
    fieldsets = (*BaseUserAdmin.fieldsets, (_("Préférences"), {"fields": ("language",)}))
    list_display = ("username", "first_name", "last_name", "email", "is_staff", "language")
    change_password_form = PasswordSetByStaffForm
    actions = ["make_reset_link"]

    @admin.action(description=_("Donner un lien pour sa demande de mot de passe (1 h, une fois)"))
    def make_reset_link(self, request, queryset):
        """Only for a request the person made from the login page, as for a GM."""
        for user in queryset:
            pending = ResetLink.objects.pending().filter(user=user).first()
            if pending is None:
                text = gettext("%(name)s n'a pas demandé de nouveau mot de passe.")
                self.message_user(request, text % {"name": user.username}, messages.WARNING)
                continue
            token = services.reset_link_make(link=pending, by=request.user)
            url = request.build_absolute_uri(reverse("accounts:reset_link", args=[token]))
            self.message_user(request, f"{user.username} : {url}", messages.SUCCESS)


@admin.register(ResetLink)
class ResetLinkAdmin(admin.ModelAdmin):
    """The log of requests and one-time links: who asked, who handed a link over, when, and
    whether it was used."""

    list_display = ("user", "requested_at", "made_by", "made_at", "used_at")
    list_select_related = ("user", "made_by")
    readonly_fields = (
        "user",
        "requested_at",
        "browser_digest",
        "made_by",
        "token_digest",
        "made_at",
        "used_at",
    )

    def has_add_permission(self, request):
        return False
