"""The OpenAPI description of the web server (``GET /api/openapi.json``): it describes every
HTTP route, and schemathesis fuzzes every route from it against a real server (uvicorn on
loopback): valid and invalid requests alike get no 5xx, and each answer is one the description
gives (its status, content type and schema); a request outside the schema is refused.

The quick tier runs a few examples per route, derandomized with a fixed seed; the slow tier
(``-m slow``) many more.
"""

from __future__ import annotations

import pytest
import schemathesis
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (content_type_conformance,
                                               negative_data_rejection,
                                               response_schema_conformance,
                                               status_code_conformance)
from starlette.routing import Route
from starlette.testclient import TestClient

from spaghetti.web import create_app
from spaghetti.web.openapi import description
from web_helpers import ServerThread

# schemathesis draws some values with the random module inside its strategies: its own affair
pytestmark = [pytest.mark.filterwarnings("ignore::DeprecationWarning"),
              pytest.mark.filterwarnings("ignore::hypothesis.errors.HypothesisDeprecationWarning")]

SEED = 20_250_601
#: What a request may not cause: a server error, or an answer the description does not give; and
#: what it must cause: a refusal of anything outside the schema. (Not "valid data is accepted":
#: the engine refuses what the schema cannot say, such as a level the variant does not have.)
CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance,
          response_schema_conformance, negative_data_rejection]


def _schema(examples: int):
    config = schemathesis.Config.from_dict({
        "seed": SEED, "generation": {"max-examples": examples, "deterministic": True}})
    return schemathesis.openapi.from_dict(description(), config=config)


quick = _schema(10)
thorough = _schema(150)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with ServerThread(str(tmp_path_factory.mktemp("fuzz") / "games.db")) as url:
        yield url


def test_every_http_route_is_described_and_every_description_is_a_route(tmp_path):
    with TestClient(create_app(str(tmp_path / "games.db"))) as client:
        served = client.get("/api/openapi.json").json()
        routes = {(r.path, m.lower()) for r in client.app.routes if isinstance(r, Route)
                  for m in r.methods or () if m != "HEAD"}
    described = {(path, method) for path, ops in served["paths"].items() for method in ops}
    assert served == description()
    assert len(routes) >= 23 and ("/api/openapi.json", "get") in routes
    assert routes == described


def test_the_description_is_valid_openapi():
    quick.validate()  # raises on a document outside the OpenAPI 3.1 schema


@quick.parametrize()
def test_fuzzing_every_route_finds_no_server_error_and_no_answer_outside_the_description(
        case, server):
    case.call_and_validate(base_url=server, checks=CHECKS)


@pytest.mark.slow
@thorough.parametrize()
def test_fuzzing_every_route_at_length(case, server):
    case.call_and_validate(base_url=server, checks=CHECKS)
