"""Frozen option objects for parsers, and their validation.

Every parser has one frozen dataclass of options. Callers may pass an
instance, a plain dict (validated: unknown keys and wrong types raise
:class:`~docparse.errors.ConfigError` naming the valid keys), or ``None`` for
the defaults. This is :func:`resolve_config`.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Mapping
from typing import Any, TypeVar, Union, get_args, get_origin, get_type_hints

from docparse.errors import ConfigError

C = TypeVar("C")


@dataclasses.dataclass(frozen=True, slots=True)
class ParserConfig:
    """Options every parser accepts.

    ``timeout``: seconds one parse call may take; ``None`` for no limit.
    """

    timeout: float | None = None


def _check_type(value: Any, hint: Any) -> bool:
    if hint is Any:
        return True
    origin = get_origin(hint)
    if origin in (Union, types.UnionType):
        return any(_check_type(value, h) for h in get_args(hint))
    if origin is typing.Literal:
        return value in get_args(hint)
    if hint is type(None):
        return value is None
    if origin is tuple:
        args = get_args(hint)
        if not isinstance(value, (tuple, list)):
            return False
        if len(args) == 2 and args[1] is Ellipsis:
            return all(_check_type(v, args[0]) for v in value)
        return len(args) == len(value) and all(
            _check_type(v, a) for v, a in zip(value, args, strict=True)
        )
    if origin is not None:
        return isinstance(value, origin)
    if hint is float:
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if hint is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if isinstance(hint, type):
        return isinstance(value, hint)
    return True


#: Option types by config class, read from its annotations once (a parse
#: given a dict config resolves one each call).
_HINTS: dict[type, dict[str, Any]] = {}


def resolve_config(cls: type[C], config: C | Mapping[str, Any] | None) -> C:
    """Return a validated ``cls`` instance from ``config``.

    >>> resolve_config(ParserConfig, {"timeout": 5})
    ParserConfig(timeout=5)
    """
    if config is None:
        return cls()
    if isinstance(config, cls):
        return config
    if not isinstance(config, Mapping):
        raise ConfigError(
            None, f"config must be a {cls.__name__} or a dict, not {type(config).__name__}"
        )
    fields = {f.name: f for f in dataclasses.fields(cls)}  # type: ignore[arg-type]
    unknown = sorted(set(config) - set(fields))
    if unknown:
        raise ConfigError(
            None,
            f"unknown option(s) {', '.join(unknown)} for {cls.__name__}; "
            f"valid: {', '.join(sorted(fields))}",
        )
    hints = _HINTS.get(cls)
    if hints is None:
        hints = _HINTS[cls] = get_type_hints(cls)
    values: dict[str, Any] = {}
    for key, value in config.items():
        hint = hints[key]
        if isinstance(value, list) and get_origin(hint) in (tuple, Union, types.UnionType):
            value = tuple(value)
        if not _check_type(value, hint):
            raise ConfigError(
                None, f"option {key}={value!r} of {cls.__name__} must be of type {hint}"
            )
        values[key] = value
    return cls(**values)
