"""Validates a crate with rocrate-validator (roc-validator) offline, and loads it with ro-crate-py.

    rocrate_validate.py CRATE_DIR LEVEL CACHE_DIR

The validator fetches the RO-Crate 1.3 JSON-LD context from the network. Offline, its HTTP cache
(requests-cache, SQLite) is seeded once with the copy of that context that ro-crate-py ships, and
the validator runs with --offline on that cache. Prints the validator's JSON report; exits 0 when
the crate is valid at LEVEL (required, recommended, optional), 1 when not, 2 when ro-crate-py
cannot load it.
"""
import io
import json
import pathlib
import subprocess
import sys

import requests
import requests_cache
import rocrate
from requests.adapters import BaseAdapter
from requests.models import Response
from urllib3.response import HTTPResponse

CONTEXT_URL = "https://w3id.org/ro/crate/1.3/context"


class LocalContext(BaseAdapter):
    """Answers the context URL from ro-crate-py's copy."""

    def send(self, request, **kwargs):
        path = pathlib.Path(rocrate.__file__).parent / "data" / "ro-crate.jsonld"
        data = path.read_bytes()
        raw = HTTPResponse(body=io.BytesIO(data), headers={"Content-Type": "application/ld+json"},
                           status=200, preload_content=False, request_url=request.url)
        response = Response()
        response.status_code = 200
        response.raw = raw
        response._content = data
        response.headers["Content-Type"] = "application/ld+json"
        response.url = request.url
        response.request = request
        return response

    def close(self):
        pass


def seed(cache_dir):
    cache_dir.mkdir(parents=True, exist_ok=True)
    session = requests_cache.CachedSession(
        cache_name=str(cache_dir / "http_cache"),
        backend="sqlite",
        allowable_methods=("GET",),
        allowable_codes=(200, 302, 404),
        expire_after=-1,
    )
    session.mount(CONTEXT_URL, LocalContext())
    session.get(CONTEXT_URL, headers={"Accept": "application/ld+json, application/json, */*;q=0.1"})


def main():
    crate, level, cache = pathlib.Path(sys.argv[1]), sys.argv[2], pathlib.Path(sys.argv[3])
    seed(cache)
    try:
        from rocrate.rocrate import ROCrate

        ROCrate(str(crate))
    except Exception as exc:  # noqa: BLE001 - report any failure to load
        print(f"ro-crate-py cannot load the crate: {type(exc).__name__}: {exc}")
        sys.exit(2)
    report = cache / "report.json"
    run = subprocess.run(
        [str(pathlib.Path(sys.executable).parent / "rocrate-validator"), "-y", "validate", str(crate),
         "--offline", "--cache-path", str(cache / "http_cache"), "-l", level, "-f", "json", "-o", str(report)],
        capture_output=True, text=True,
    )
    text = report.read_text() if report.exists() else run.stdout + run.stderr
    print(text)
    try:
        valid = json.loads(text).get("passed")
    except ValueError:
        valid = False
    sys.exit(0 if valid else 1)


main()
