"""The account side: Django's auth views styled like the app, sign-up, the account page and
its address confirmation, a forgotten password without email (the request, the GM's
one-time link), and the lockout page."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login, update_session_auth_hash
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_not_required
from django.contrib.auth.forms import SetPasswordForm
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.urls import reverse, reverse_lazy
from django.utils import timezone, translation
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from apps.campaigns.models import Campaign, Role

from . import services
from .clientip import client_ip
from .forms import AccountForm, LanguageForm, ResetAskForm, ResetRequestForm, SignupForm
from .models import RESET_REQUEST_LIFETIME, ResetLink

# The backend a freshly created account is logged in with (axes' one authenticates nobody).
MODEL_BACKEND = "django.contrib.auth.backends.ModelBackend"
# The cookie of the browser that asked a GM for a new password: the link the GM hands over
# opens only there. Sent only to the link's pages.
RESET_COOKIE = "tablee_reset"


def _reset_cookie_path() -> str:
    """The links' folder ("/compte/lien/"): the only pages the cookie is sent to."""
    return reverse("accounts:reset_link", args=["-"]).removesuffix("-/")


def email_sent_message(email: str) -> str:
    """What the account form and sign-up say of a new address, whoever has it."""
    return _(
        "Un e-mail de confirmation est parti à %(email)s : l'adresse sera enregistrée "
        "quand vous ouvrirez son lien (24 heures)."
    ) % {"email": email}


def remember_language(response: HttpResponse, language: str) -> HttpResponse:
    """The language also lives in a cookie: the login page speaks it after a logout."""
    response.set_cookie(
        settings.LANGUAGE_COOKIE_NAME,
        language,
        max_age=settings.LANGUAGE_COOKIE_AGE,
        samesite=settings.LANGUAGE_COOKIE_SAMESITE,
        secure=settings.LANGUAGE_COOKIE_SECURE,
        httponly=True,
    )
    return response


class LoginView(auth_views.LoginView):
    """Log in with a username and password (someone already logged in goes on)."""

    template_name = "accounts/login.html"
    redirect_authenticated_user = True

    def get_context_data(self, **kwargs):
        return super().get_context_data(signup_open=settings.SIGNUP_OPEN, **kwargs)

    def form_valid(self, form):
        response = super().form_valid(form)
        services.password_reset_notice(self.request, form.get_user())
        return response


class LogoutView(auth_views.LogoutView):
    """Logging out ends the session for good: a copied cookie stops working too (it ends
    the user's sessions on every device, see the README)."""

    def post(self, request, *args, **kwargs):
        if request.user.is_authenticated:
            request.user.end_sessions()
        return super().post(request, *args, **kwargs)


class PasswordChangeView(auth_views.PasswordChangeView):
    """The other sessions end (the password is in their hash); this one goes on."""

    template_name = "accounts/password_change.html"
    success_url = reverse_lazy("accounts:password_change_done")

    def form_valid(self, form):
        response = super().form_valid(form)
        services.password_changed_mail(user=form.user)
        return response


class PasswordChangeDoneView(auth_views.PasswordChangeDoneView):
    """The password is changed: say so."""

    template_name = "accounts/password_change_done.html"


class PasswordResetView(auth_views.PasswordResetView):
    """Forgotten password: a mail with a reset link, the same answer whether or not the
    email has an account; beside it, the request without an email (``reset_ask``)."""

    form_class = ResetRequestForm
    template_name = "accounts/password_reset.html"
    email_template_name = services.RESET_MAIL_TEMPLATES["email_template_name"]
    subject_template_name = services.RESET_MAIL_TEMPLATES["subject_template_name"]
    success_url = reverse_lazy("accounts:password_reset_done")

    def get_form_kwargs(self):
        return {**super().get_form_kwargs(), "address": client_ip(self.request)}

    def get_context_data(self, **kwargs):
        return super().get_context_data(ask_form=ResetAskForm(), **kwargs)


@login_not_required
@require_http_methods(["GET", "POST"])
def reset_ask(request: HttpRequest) -> HttpResponse:
    """Forgotten password without an email: by username, a request the player's GM sees and
    answers with a link that opens only in this browser (or the mail, if the account has an
    address). The same answer whatever the username."""
    if request.method != "POST":
        return redirect("accounts:password_reset")
    form = ResetAskForm(request.POST, address=client_ip(request))
    if not form.is_valid():
        context = {"form": ResetRequestForm(), "ask_form": form}
        return TemplateResponse(request, "accounts/password_reset.html", context)
    form.record()
    secret = services.reset_ask(username=form.cleaned_data["username"], request=request)
    response = redirect("accounts:reset_ask_done")
    response.set_cookie(
        RESET_COOKIE,
        secret,
        max_age=int(RESET_REQUEST_LIFETIME.total_seconds()),
        path=_reset_cookie_path(),
        secure=settings.SESSION_COOKIE_SECURE,
        httponly=True,
        samesite="Lax",
    )
    return response


@login_not_required
@require_GET
def reset_ask_done(request: HttpRequest) -> HttpResponse:
    """The request is made (if the account exists): what happens next."""
    return TemplateResponse(request, "accounts/reset_ask_done.html")


class PasswordResetDoneView(auth_views.PasswordResetDoneView):
    """The reset mail is on its way (if the email has an account)."""

    template_name = "accounts/password_reset_done.html"


class PasswordResetConfirmView(auth_views.PasswordResetConfirmView):
    """The reset link: a new password, twice."""

    template_name = "accounts/password_reset_confirm.html"
    success_url = reverse_lazy("accounts:password_reset_complete")

    def form_valid(self, form):
        response = super().form_valid(form)
        services.password_reset_told(user=form.user)
        return response


class PasswordResetCompleteView(auth_views.PasswordResetCompleteView):
    """The new password is set: log in with it."""

    template_name = "accounts/password_reset_complete.html"


def locked_out(request: HttpRequest, response=None, credentials=None) -> HttpResponse:
    """django-axes' answer past a login limit: 429, and when to try again."""
    minutes = int(settings.AXES_COOLOFF_TIME.total_seconds() // 60)
    context = {
        "cooloff_minutes": minutes,
        "retry_at": timezone.localtime() + settings.AXES_COOLOFF_TIME,
    }
    return TemplateResponse(request, "accounts/locked_out.html", context, status=429).render()


@login_not_required
@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    """Open sign-up (``SIGNUP_OPEN``): a game master makes an account, then a campaign."""
    if not settings.SIGNUP_OPEN:
        raise Http404("Sign-up is closed.")
    if request.user.is_authenticated:
        return redirect("home")
    form = SignupForm(request.POST or None, address=client_ip(request))
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user, backend=MODEL_BACKEND)
        messages.success(request, _("Compte créé. Créez votre première campagne !"))
        if form.email_to_confirm:
            services.email_confirm_ask(user=user, email=form.email_to_confirm, request=request)
            messages.info(request, email_sent_message(form.email_to_confirm))
        return redirect("home")
    return TemplateResponse(request, "accounts/signup.html", {"form": form})


@require_http_methods(["GET", "POST"])
def account(request: HttpRequest) -> HttpResponse:
    """My account: name, email, language, password, other devices, my campaigns."""
    form = AccountForm(request.POST or None, instance=request.user, address=client_ip(request))
    if request.method == "POST" and form.is_valid():
        user = form.save()
        if form.email_to_confirm:
            services.email_confirm_ask(user=user, email=form.email_to_confirm, request=request)
        with translation.override(user.language):  # say it in the chosen language
            messages.success(request, _("Compte enregistré."))
            if form.email_to_confirm:
                messages.info(request, email_sent_message(form.email_to_confirm))
        return remember_language(redirect("accounts:account"), user.language)
    campaigns = Campaign.objects.for_user(request.user).order_by("name", "pk")
    for campaign in campaigns:
        campaign.role_label = Role(campaign.role).label
    context = {"form": form, "campaigns": campaigns}
    return TemplateResponse(request, "accounts/account.html", context)


@require_POST
def sessions_end_others(request: HttpRequest) -> HttpResponse:
    """Log out my other devices: every session ends but this one."""
    request.user.end_sessions()
    update_session_auth_hash(request, request.user)
    messages.success(request, _("Vos autres appareils sont déconnectés."))
    return redirect("accounts:account")


@login_not_required
@require_http_methods(["GET", "POST"])
def reset_link_use(request: HttpRequest, token: str) -> HttpResponse:
    """The link a GM handed over for the player's request: choose a new password, within the
    hour, once, in the browser that asked."""
    link = ResetLink.objects.usable().for_token(token).select_related("user").first()
    if link is None or not link.opened_by(request.COOKIES.get(RESET_COOKIE, "")):
        return TemplateResponse(request, "accounts/reset_link.html", {"form": None})
    form = SetPasswordForm(link.user, request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            services.reset_link_use(link=link, password=form.cleaned_data["new_password1"])
        except services.ResetLinkUsed:
            return TemplateResponse(request, "accounts/reset_link.html", {"form": None})
        messages.success(request, _("Mot de passe enregistré : connectez-vous."))
        response = redirect("accounts:login")
        response.delete_cookie(RESET_COOKIE, path=_reset_cookie_path())
        return response
    return TemplateResponse(request, "accounts/reset_link.html", {"form": form, "link": link})


@login_not_required
@require_http_methods(["GET", "POST"])
def email_confirm(request: HttpRequest, token: str) -> HttpResponse:
    """The link mailed to a new address: a button stores it on the account (a GET changes
    nothing: a mail scanner opening links confirms nothing)."""
    try:
        user, email = services.email_confirm_read(token)
        if request.method == "POST":
            services.email_confirm(token=token)
            messages.success(request, _("Adresse e-mail confirmée."))
            return redirect("accounts:account" if request.user.is_authenticated else "home")
    except services.EmailConfirmRefused as refusal:
        return TemplateResponse(request, "accounts/email_confirm.html", {"refusal": refusal})
    context = {"account": user, "email": email}
    return TemplateResponse(request, "accounts/email_confirm.html", context)


@login_not_required
@require_POST
def language_set(request: HttpRequest) -> HttpResponse:
    """Switch the interface language, remembered on the account and in a cookie."""
    form = LanguageForm(request.POST)
    target = request.POST.get("next", "")
    if not url_has_allowed_host_and_scheme(target, {request.get_host()}, request.is_secure()):
        target = "/"
    response = redirect(target)
    if not form.is_valid():
        return response
    language = form.cleaned_data["language"]
    if request.user.is_authenticated:
        request.user.set_language(language)
    return remember_language(response, language)
