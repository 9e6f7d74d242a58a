"""Reading a request's fields: its query string, then a JSON object body, bounded in size and in
the digits of its numbers (the web app's first step for every request, before its fields are
checked by :mod:`draughts.web.fields`)."""

from __future__ import annotations

import json
from typing import Any

from starlette.requests import ClientDisconnect, Request

from draughts.web.views import RequestError

__all__ = ["MAX_DIGITS", "read_params"]

MAX_DIGITS = 40
"""The most digits a number in a JSON body may have (``int()`` of a long one takes quadratic time)."""


async def _body(request: Request, limit: int) -> bytes:
    """The request body, refused past ``limit`` bytes without reading the rest."""
    declared = request.headers.get("content-length")
    if declared is not None:
        if not declared.isascii() or not declared.isdigit() or len(declared) > 18:
            raise RequestError(f"bad Content-Length {declared[:40]!r}")
        if int(declared) > limit:
            raise RequestError(f"request body of {int(declared):,} bytes is larger than {limit:,} bytes", 413)
    chunks: list[bytes] = []
    size = 0
    try:
        async for chunk in request.stream():
            size += len(chunk)
            if size > limit:
                raise RequestError(f"request body is larger than {limit:,} bytes", 413)
            chunks.append(chunk)
    except ClientDisconnect:
        raise RequestError("the client went away", 400) from None
    return b"".join(chunks)


def _json_int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise RequestError(f"the body holds a number of {len(text):,} digits ({text[:20]}...); at most {MAX_DIGITS}")
    return int(text)


def _parse_body(body: bytes) -> dict[str, Any]:
    try:
        parsed = json.loads(body, parse_int=_json_int)
    except RequestError:
        raise
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise RequestError(f"the body is not JSON ({error}): {body[:60]!r}") from None
    except RecursionError:
        raise RequestError("the body is JSON nested too deeply") from None
    if not isinstance(parsed, dict):
        raise RequestError(f"the body must be a JSON object, not {type(parsed).__name__}: {body[:60]!r}")
    return parsed


async def read_params(request: Request, limit: int) -> dict[str, Any]:
    """The request's fields: the query string, then a JSON object body (whose fields win)."""
    data: dict[str, Any] = dict(request.query_params)
    if request.method in ("GET", "HEAD", "DELETE"):
        return data
    body = await _body(request, limit)
    if not body.strip():
        return data
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind != "application/json":
        raise RequestError(f"request bodies are JSON: Content-Type {kind[:60]!r} is not application/json", 415)
    data.update(_parse_body(body))
    return data
