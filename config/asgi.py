"""ASGI entry point: the live streams on the event loop, every page through Django's WSGI
handler on a pool of threads, in one server (uvicorn: `manage.py start`, production).

Django runs a sync view under ASGI through seven hops between the event loop and one
shared thread (asgiref restores ~45 context variables at each), and that thread serves every
sync view of the process in turn, so a request waiting on the database holds all the others
(measured here: a bare view 2.4 ms under gunicorn, 4.4-6.3 ms under uvicorn; the table
view's region 5-7 ms, 8-10 ms). The streams (apps/core/push.py) are the only async views:
they are served by Django's ASGI handler, and everything else by its WSGI handler, as
gunicorn would, in a2wsgi's threads. The route decides: an async view is a stream.
"""

import asyncio
import gc
import os

from a2wsgi import WSGIMiddleware
from django.core.asgi import get_asgi_application
from django.core.wsgi import get_wsgi_application
from django.urls import Resolver404, resolve

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

streams = get_asgi_application()  # sets Django up
pages_wsgi = get_wsgi_application()
# Threads for the pages: a request waiting on the database lets another run. The database
# pool (DATABASE_POOL_MAX_SIZE, 10) must hold at least as many connections.
PAGE_THREADS = int(os.environ.get("PAGE_THREADS", "4"))


def pages_with_streams(environ, start_response):
    """The pages, told that this server also serves their streams (``streams_served``)."""
    environ["tablee.streams_served"] = True
    return pages_wsgi(environ, start_response)


pages = WSGIMiddleware(pages_with_streams, workers=PAGE_THREADS)


def is_stream(path: str) -> bool:
    try:
        return asyncio.iscoroutinefunction(resolve(path).func)
    except Resolver404:
        return False


async def application(scope, receive, send):
    if scope["type"] == "http" and not is_stream(scope["path"]):
        await pages(scope, receive, send)
    else:  # the streams, and the server's lifespan messages
        await streams(scope, receive, send)


# What starting made (modules, models, URL patterns: ~80,000 objects) lives as long as the
# process: kept out of the garbage collector's full passes, which took 40-45 ms each here
# with every request of the process waiting (the load tests' slowest steps).
gc.freeze()
