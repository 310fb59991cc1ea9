"""Transitional face of the engine while the module becomes a package (next commit splits it)."""

from apps.rules.aethoria import rolls as _module

globals().update({k: v for k, v in vars(_module).items() if not k.startswith("__")})
