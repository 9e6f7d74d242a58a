"""The compare page's play statistics panel, server side: POST /api/lab starts a small lab in the
background, GET /api/lab/{id} reports its progress and result, DELETE cancels it (issue 26 §2).

The result must be the lab's own: the figures of ``draughts lab ... --format json`` and of
:func:`draughts.lab.run_lab` for the same settings, the table of :mod:`draughts.lab.report`, the
plots of :mod:`draughts.lab.plots`.
"""

from __future__ import annotations

import asyncio
import io
import json
import time
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from typing import Any

import attrs
import pytest
from starlette.testclient import TestClient

import draughts
from draughts.cli import main
from draughts.lab import lab_tasks, play_task, run_lab
from draughts.lab.report import compare, table_text
from draughts.web import lab
from draughts.web.app import create_app
from draughts.web.lab import LabJobs, LabSettings
from draughts.web.views import RequestError

POOL = attrs.evolve(draughts.get_variant("brazilian"), name="my-pool", title="Pool checkers", precedence=())
SMALL = {"workers": 1, "engine_workers": 1, "extra_workers": 0, "work_time": 120.0}


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def client() -> Iterator[TestClient]:
    with TestClient(create_app(default_variant="russian", custom=[POOL], **SMALL)) as test_client:
        yield test_client


def ok(response: Any, status: int = 200) -> Any:
    assert response.status_code == status, response.text
    return response.json()


def finished(client: TestClient, job_id: str, timeout: float = 120.0) -> tuple[dict[str, Any], list[tuple[int, int]]]:
    """Poll the job until it ends: its last answer and every (done, total) seen on the way."""
    seen: list[tuple[int, int]] = []
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        job: dict[str, Any] = ok(client.get(f"/api/lab/{job_id}"))
        seen.append((job["done"], job["total"]))
        if job["state"] in ("done", "failed", "cancelled"):
            return job, seen
        time.sleep(0.02)
    raise AssertionError(f"lab job {job_id} still running after {timeout} s: {seen[-3:]}")


def cli_json(*args: str) -> Any:
    out = io.StringIO()
    assert main(["lab", *args, "--format", "json"], out) == 0
    return json.loads(out.getvalue())


# --- start, progress, result ----------------------------------------------------------------------


def test_a_lab_runs_in_the_background_and_equals_draughts_lab(client: TestClient) -> None:
    body = {"variants": ["russian", "russian-nfc"], "games": 24, "players": "random", "seed": 7, "max_plies": 200}
    started = ok(client.post("/api/lab", json=body), 202)
    assert started["state"] == "starting"
    assert started["done"] == 0
    assert started["settings"] == body
    job, seen = finished(client, started["id"])
    assert job["state"] == "done", job
    assert (job["done"], job["total"]) == (48, 48)
    assert all(0 <= done <= total for done, total in seen)
    assert [d for d, _ in seen] == sorted(d for d, _ in seen)
    result = job["result"]
    # The figures: those of the command line (the JSON contract) and of run_lab, for the same settings.
    expected = cli_json("russian", "russian-nfc", "--games", "24", "--seed", "7", "--max-plies", "200")
    assert result["figures"] == expected
    figures = run_lab(["russian", "russian-nfc"], 24, seed=7, max_plies=200)
    assert result["figures"] == {name: m.to_dict() for name, m in figures.items()}
    # The table: draughts lab's own, row by row, with its marks and legend.
    comparison = compare(figures)
    table = result["table"]
    assert table["text"] == table_text(comparison)
    assert table["legend"] == comparison.legend()
    assert table["rulesets"] == ["russian", "russian-nfc"]
    assert table["games"] == [24, 24]
    assert [row["metric"] for row in table["rows"]] == [row.metric for row in comparison.rows]
    for row, mine in zip(comparison.rows, table["rows"], strict=True):
        assert [cell["text"] for cell in mine["cells"]] == [cell.text() for cell in row.cells]
        assert [cell["significant"] for cell in mine["cells"]] == [cell.significant for cell in row.cells]
    assert any(cell["significant"] for row in table["rows"] for cell in row["cells"])  # nfc differs: marked
    assert "draw_rate" in {row["metric"] for row in table["rows"]}
    # every row's label in words for the panel (issue 40 §6): no snake_case
    labels = {row["metric"]: row["label"] for row in table["rows"]}
    assert labels["draw_rate"] == "draws, capped games included"
    assert labels["plies_mean"] == "game length (mean plies)"
    assert not [label for label in labels.values() if "_" in label]
    # The plots: the lab's three SVG documents, well-formed, one series per ruleset.
    assert set(result["plots"]) == {"lengths", "branching", "score"}
    score = ET.fromstring(result["plots"]["score"])
    estimates = score.findall(".//{http://www.w3.org/2000/svg}g[@class='estimate']")
    assert [e.get("data-ruleset") for e in estimates] == ["russian", "russian-nfc"]
    assert float(estimates[0].get("data-value", "nan")) == pytest.approx(figures["russian"].first_player_score.value)
    for svg in result["plots"].values():
        ET.fromstring(svg)


def test_the_games_are_played_and_measured_in_worker_processes(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The server's own process cannot play or measure: the lab still ends, so its work ran elsewhere.
    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("lab work on the server's process")

    for module, name in (("draughts.lab.runner", "play_task"), ("draughts.web.lab", "play_task")):
        monkeypatch.setattr(f"{module}.{name}", refuse)
    for name in ("draughts.lab.metrics.measure", "draughts.lab.report.compare", "draughts.lab.plots.score_plot"):
        monkeypatch.setattr(name, refuse)
    job, _ = finished(client, ok(client.post("/api/lab", json={"variants": ["italian"], "games": 4}), 202)["id"])
    assert job["state"] == "done", job
    assert job["result"]["table"]["games"] == [4]


def test_engine_players_and_aliases_are_the_command_lines(client: TestClient) -> None:
    body = {"variants": ["shashki", "italian"], "games": 2, "players": "depth:1", "seed": 3, "max_plies": 60}
    job, _ = finished(client, ok(client.post("/api/lab", json=body), 202)["id"])
    assert job["state"] == "done", job
    assert job["settings"]["variants"] == ["russian", "italian"]  # the canonical names
    expected = cli_json(
        "russian", "italian", "--games", "2", "--players", "depth:1", "--seed", "3", "--max-plies", "60"
    )
    assert job["result"]["figures"] == expected
    assert job["result"]["figures"]["russian"]["lead_changes"] is not None  # the engine's evaluations were used
    assert "lead_changes" in {row["metric"] for row in job["result"]["table"]["rows"]}


def test_one_ruleset_twice_is_played_once(client: TestClient) -> None:
    body = {"variants": ["russian", "Russian", "shashki"], "games": 3}
    job, _ = finished(client, ok(client.post("/api/lab", json=body), 202)["id"])
    assert job["settings"]["variants"] == ["russian"]
    assert job["total"] == 3
    assert job["result"]["figures"] == cli_json("russian", "--games", "3", "--seed", "0")
    assert "differs from" not in job["result"]["table"]["legend"]


def test_the_compare_page_offers_the_panel(client: TestClient) -> None:
    page = client.get("/compare", params={"variants": "russian,russian-nfc"})
    assert page.status_code == 200
    for marker in ('id="lab-form"', 'id="lab-progress"', 'id="lab-table"', 'id="lab-plots"', "Play statistics"):
        assert marker in page.text
    config = json.loads(page.text.split('id="config">', 1)[1].split("</script>", 1)[0])
    assert config["lab"]["players"] == list(lab.PLAYERS)
    assert config["lab"]["max_games"] == lab.MAX_GAMES
    assert config["lab"]["max_total"] == lab.MAX_TOTAL
    assert "POST /api/lab" in ok(client.get("/api")).get("endpoints")


# --- bad and oversized requests -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "quoted"),
    [
        ({"variants": ["russian"], "games": 201}, "201"),
        ({"variants": ["russian", "italian", "brazilian", "pool"], "games": 200}, "800"),
        ({"variants": ["russian", "italian", "brazilian", "pool"], "games": 16, "players": "depth:2"}, "64"),
        ({"variants": ["russian"], "games": 21, "players": "depth:1"}, "21"),
        ({"variants": ["russian"], "games": 10**30}, "must be from 1 to"),
        ({"variants": ["russian"], "games": 0}, "'games'"),
        ({"variants": ["russian"], "games": "many"}, "many"),
        ({"variants": ["russian"], "players": "strong"}, "strong"),
        ({"variants": ["russian"], "players": "hub:rm -rf /"}, "hub:rm -rf /"),
        ({"variants": ["russian"], "seed": -1}, "'seed'"),
        ({"variants": ["russian"], "max_plies": 301}, "301"),
        ({"variants": ["russian"], "max_plies": 10**30}, "max_plies"),
        ({"variants": ["my-pool", "russian"]}, "my-pool"),
        ({"variants": ["<script>alert(1)</script>"]}, "<script>alert(1)</script>"),
        ({"variants": ["draughts.rules.variants:ITALIAN"]}, "draughts.rules.variants:ITALIAN"),
        ({"variants": []}, "'variants'"),
        ({"variants": [f"v{n}" for n in range(13)]}, "'variants'"),
        ({"variants": ["russian", "italian", "brazilian", "pool", "czech", "turkish", "frisian"], "games": 1}, "7"),
        ({"variants": ["russian"], "workers": 64}, "workers"),
        ({"variants": ["x" * 100_000]}, "'variants'"),
        ({}, "variants"),
    ],
)
def test_bad_requests_are_refused_quoting_them(client: TestClient, body: dict[str, Any], quoted: str) -> None:
    response = client.post("/api/lab", json=body)
    assert response.status_code == 400, response.text
    assert quoted in response.json()["error"]
    assert ok(client.get("/api/legal-moves", params={"variant": "italian"}))["fen"]  # still serving


def test_unknown_jobs_and_methods(client: TestClient) -> None:
    for path in ("/api/lab/nope", "/api/lab/" + "x" * 500):
        assert client.get(path).status_code == 404
        assert client.delete(path).status_code == 404
    assert "nope" in client.get("/api/lab/nope").json()["error"]
    assert client.put("/api/lab", json={}).status_code == 405
    assert client.get("/api/lab/nope", params={"games": "3"}).status_code == 400
    assert client.post("/api/lab", content=b"games=3", headers={"content-type": "text/plain"}).status_code == 415


# --- bounds: jobs at once, idle jobs, expiry --------------------------------------------------------


class StuckPool:
    """A pool whose jobs never end (until cancelled): the lab jobs stay running."""

    def __init__(self) -> None:
        self.calls = 0

    async def run(self, function: Any, *args: Any, **options: Any) -> Any:
        self.calls += 1
        await asyncio.Event().wait()


def test_jobs_at_once_are_bounded_then_cancelled_and_expired() -> None:
    clock = FakeClock()
    app = create_app(default_variant="russian", clock=clock, lab_jobs=2, lab_idle=30.0, lab_ttl=100.0, **SMALL)
    with TestClient(app) as client:
        labs = app.state.web.labs
        stuck = StuckPool()
        labs.pool = stuck
        body = {"variants": ["russian"], "games": 5}
        first = ok(client.post("/api/lab", json=body), 202)["id"]
        second = ok(client.post("/api/lab", json=body), 202)["id"]
        refused = client.post("/api/lab", json=body)
        assert refused.status_code == 429
        assert "2 lab jobs" in refused.json()["error"]
        # A cancelled job is gone and frees its place.
        assert client.delete(f"/api/lab/{first}").status_code == 204
        assert client.get(f"/api/lab/{first}").status_code == 404
        third = ok(client.post("/api/lab", json=body), 202)["id"]
        # Nobody asks about the second for longer than lab_idle: it is cancelled; the third was asked.
        clock.now += 20
        assert ok(client.get(f"/api/lab/{third}"))["state"] == "starting"
        clock.now += 15
        stopped = ok(client.get(f"/api/lab/{second}"))
        assert stopped["state"] == "cancelled"
        assert "30 seconds" in stopped["error"]
        assert ok(client.get(f"/api/lab/{third}"))["state"] == "starting"
        # A finished job is kept lab_ttl seconds, then forgotten.
        clock.now += 99
        assert client.get(f"/api/lab/{second}").status_code == 200
        clock.now += 2
        gone = client.get(f"/api/lab/{second}")
        assert gone.status_code == 404
        assert "100 seconds" in gone.json()["error"]
        assert stuck.calls == 3


def test_a_failing_game_fails_the_job_not_the_server() -> None:
    class Refusing:
        async def run(self, function: Any, *args: Any, **options: Any) -> Any:
            if function is lab.plan:
                return lab.plan(*args)
            raise RequestError("the work took more than 10 s; it was stopped", 422)

    app = create_app(default_variant="russian", **SMALL)
    with TestClient(app) as client:
        app.state.web.labs.pool = Refusing()
        job, _ = finished(client, ok(client.post("/api/lab", json={"variants": ["russian"], "games": 2}), 202)["id"])
        assert job["state"] == "failed"
        assert "10 s" in job["error"]
        assert "result" not in job


def test_lab_jobs_unit_kept_bound() -> None:
    async def scenario() -> None:
        clock = FakeClock()
        labs = LabJobs(StuckPool(), clock, running=1, kept=2)  # type: ignore[arg-type]
        settings = LabSettings(("russian",), 5, "random", 0, 300)
        first = labs.start(settings)
        labs.cancel(first.id)
        labs.start(settings)
        with pytest.raises(RequestError) as refused:
            labs.start(settings)
        assert refused.value.status == 429
        labs.close()
        assert labs.running() == 0

    asyncio.run(scenario())


def test_the_plots_and_table_escape_every_name() -> None:
    # The page inserts the plots as SVG markup: a name in them must stay text, whatever it holds.
    hostile = '<img src=x onerror=alert(1)>&"'
    records = [attrs.evolve(play_task(task), ruleset=hostile) for task in lab_tasks(["russian"], 4, seed=1)]
    result = lab.report([hostile], records)
    assert list(result["figures"]) == [hostile]
    assert result["table"]["rulesets"] == [hostile]  # the page puts it in with textContent
    drawn = {"svg", "title", "rect", "text", "g", "line", "circle", "polyline", "path"}
    for svg in result["plots"].values():
        assert "<img" not in svg
        root = ET.fromstring(svg)
        assert {element.tag.split("}")[-1] for element in root.iter()} <= drawn
        assert hostile in "".join(root.itertext())  # shown as the text it is
