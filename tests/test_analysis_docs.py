"""docs/metrics.md carries the registry table verbatim; the example spec and docs exist."""

from pathlib import Path

from pirate_sim import metrics

ROOT = Path(__file__).parent.parent


def test_metrics_doc_matches_registry():
    text = (ROOT / "docs/metrics.md").read_text()
    assert metrics.markdown_reference() in text


def test_balance_gate_doc_mentions_exit_codes():
    text = (ROOT / "docs/balance-gate.md").read_text()
    for needle in ("exit code", "junit", "--baseline", "--update-baseline", "[[bound]]"):
        assert needle.lower() in text.lower(), needle
