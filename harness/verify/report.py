"""The run's three outputs: JUnit for CI, ``checks.json`` for tools, one HTML page for people.

JUnit has one test case per check × case. A failure and a stale baseline are
``<failure>``; a not-verified check and a baselined failure are ``<skipped>``
with their reason (neither is a pass). The HTML page is self-contained (inline
CSS, no script, no fetch): a table of every check, the frames and prose of
what failed, the not-verified checks in their own section.
"""

from __future__ import annotations

import html
import json
from collections import defaultdict
from pathlib import Path
from typing import Any
from xml.etree import ElementTree as ET

from harness.verify.model import CHECKS, CaseResult, Report, Status


def write_json(report: Report, path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    body = json.dumps(report.as_json(), indent=2, ensure_ascii=False)
    path.write_text(body + "\n", encoding="utf-8")
    return path


def _evidence_text(result: CaseResult) -> str:
    return json.dumps(result.evidence, indent=2, ensure_ascii=False)[:20_000]


def junit_xml(report: Report) -> str:
    tally = report.tally()
    suite = ET.Element(
        "testsuite",
        {
            "name": "beacon-verify",
            "tests": str(tally["cases"]),
            "failures": str(tally[Status.FAIL.value] + tally[Status.STALE.value]),
            "errors": "0",
            "skipped": str(tally[Status.NOT_VERIFIED.value] + tally[Status.BASELINED.value]),
            "time": f"{report.seconds:.3f}",
            "timestamp": report.started_at,
        },
    )
    props = ET.SubElement(suite, "properties")
    ET.SubElement(props, "property", {"name": "target", "value": report.target})
    ET.SubElement(props, "property", {"name": "mode", "value": report.mode})
    for result in report.results:
        case = ET.SubElement(
            suite,
            "testcase",
            {
                "classname": f"verify.{result.check}",
                "name": result.case,
                "time": f"{result.seconds:.3f}",
            },
        )
        if result.status is Status.FAIL:
            failure = ET.SubElement(case, "failure", {"message": result.message, "type": "fail"})
            failure.text = _evidence_text(result)
        elif result.status is Status.STALE:
            ET.SubElement(case, "failure", {"message": result.message, "type": "stale_baseline"})
        elif result.status is Status.NOT_VERIFIED:
            ET.SubElement(case, "skipped", {"message": f"not verified: {result.message}"})
        elif result.status is Status.BASELINED:
            skipped = ET.SubElement(
                case, "skipped", {"message": f"baselined failure: {result.message}"}
            )
            skipped.text = _evidence_text(result)
    root = ET.Element("testsuites")
    root.append(suite)
    ET.indent(root)
    return '<?xml version="1.0" encoding="utf-8"?>\n' + ET.tostring(root, encoding="unicode")


def write_junit(report: Report, path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(junit_xml(report) + "\n", encoding="utf-8")
    return path


_CSS = """
body{font:14px/1.45 system-ui,sans-serif;margin:2rem;color:#1b1f24;max-width:1200px}
h1{font-size:1.4rem;margin:0 0 .3rem}h2{font-size:1.1rem;margin:2rem 0 .5rem}
.meta{color:#57606a}.tally span{display:inline-block;margin-right:1rem;font-weight:600}
table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:.3rem .5rem;
border-bottom:1px solid #d0d7de;vertical-align:top}th{background:#f6f8fa}
.pass{color:#116329}.fail,.stale_baseline{color:#a40e26;font-weight:700}
.not_verified{color:#6e7781}.baselined{color:#9a6700}
.badge{display:inline-block;padding:0 .45rem;border-radius:.6rem;font-size:.8rem;
background:#eef}.pass .badge{background:#dafbe1}
.fail .badge,.stale_baseline .badge{background:#ffebe9}
.baselined .badge{background:#fff8c5}.not_verified .badge{background:#eaeef2}
pre{background:#f6f8fa;padding:.6rem;overflow:auto;max-height:24rem;white-space:pre-wrap;
word-break:break-word;font-size:12px}details{margin:.6rem 0 1rem}summary{cursor:pointer}
"""


def _row(result: CaseResult) -> str:
    s = result.status.value
    return (
        f'<tr class="{s}"><td><span class="badge">{html.escape(s.replace("_", " "))}</span></td>'
        f"<td><code>{html.escape(result.check)}</code></td><td>{html.escape(result.case)}</td>"
        f"<td>{html.escape(result.kind)}</td><td>{html.escape(result.message)}</td></tr>"
    )


def _detail(result: CaseResult) -> str:
    ev: dict[str, Any] = result.evidence
    parts = [
        f'<details open><summary class="{result.status.value}"><code>'
        f"{html.escape(result.id)}</code> — {html.escape(result.message)}</summary>",
        f"<p>{html.escape(CHECKS[result.check].title)}</p>",
    ]
    if ev.get("prose"):
        parts.append(f"<h4>Prose published</h4><pre>{html.escape(str(ev['prose']))}</pre>")
    for sentence in ev.get("sentences", []):
        parts.append(
            "<p>Sentence: <q>"
            f"{html.escape(str(sentence.get('sentence')))}</q> — rule <code>"
            f"{html.escape(str(sentence.get('rule')))}</code>, token <code>"
            f"{html.escape(str(sentence.get('token')))}</code>; judged as <q>"
            f"{html.escape(str(sentence.get('judged_as')))}</q></p>"
        )
    if ev.get("frames"):
        frames = "\n".join(str(line) for line in ev["frames"])
        parts.append(f"<h4>Frames</h4><pre>{html.escape(frames)}</pre>")
    rest = {k: v for k, v in ev.items() if k not in ("prose", "frames", "sentences")}
    if rest:
        dumped = json.dumps(rest, indent=2, ensure_ascii=False)[:20_000]
        parts.append(f"<h4>Evidence</h4><pre>{html.escape(dumped)}</pre>")
    parts.append("</details>")
    return "".join(parts)


def html_report(report: Report) -> str:
    tally = report.tally()
    by_check: dict[str, list[CaseResult]] = defaultdict(list)
    for result in report.results:
        by_check[result.check].append(result)
    verdict = "PASSED" if report.exit_code == 0 else "FAILED"
    ran = [r for r in report.results if r.status is not Status.NOT_VERIFIED]
    not_verified = report.of(Status.NOT_VERIFIED)
    red = report.of(Status.FAIL, Status.STALE)
    baselined = report.of(Status.BASELINED)
    summary_rows = []
    for name, results in by_check.items():
        statuses = [r.status for r in results]
        # A check that ran for some cases and not others is "partly run", never green;
        # one that ran for none is "not run".
        worst = next(
            (
                s
                for s in (
                    Status.FAIL,
                    Status.STALE,
                    Status.NOT_VERIFIED,
                    Status.BASELINED,
                    Status.PASS,
                )
                if s in statuses
            ),
            Status.PASS,
        )
        label = worst.value.replace("_", " ")
        if worst is Status.NOT_VERIFIED:
            done = sum(1 for s in statuses if s is not Status.NOT_VERIFIED)
            label = f"partly run ({done}/{len(statuses)})" if done else "not run"
        passed = sum(1 for s in statuses if s is Status.PASS)
        summary_rows.append(
            f'<tr class="{worst.value}"><td><span class="badge">'
            f"{html.escape(label)}</span></td>"
            f"<td><code>{html.escape(name)}</code></td><td>{html.escape(CHECKS[name].kind)}</td>"
            f"<td>{passed}/{len(statuses)}</td><td>{html.escape(CHECKS[name].title)}</td></tr>"
        )
    body = [
        "<!doctype html><html lang='en'><head><meta charset='utf-8'>",
        f"<title>beacon verify — {html.escape(report.target)}</title><style>{_CSS}</style></head>",
        f"<body><h1>beacon verify: {verdict}</h1>",
        f"<p class='meta'>target <code>{html.escape(report.target)}</code> · {report.mode} · "
        f"started {html.escape(report.started_at)} · {report.seconds:.1f}s"
        + (f" · baseline <code>{html.escape(report.baseline)}</code>" if report.baseline else "")
        + "</p>",
        "<p class='tally'>"
        + "".join(
            f"<span class='{s.value}'>{html.escape(s.value.replace('_', ' '))}: "
            f"{tally[s.value]}</span>"
            for s in Status
        )
        + f"<span>cases: {tally['cases']}</span></p>",
        "<h2>Checks</h2><table><tr><th>verdict</th><th>check</th><th>kind</th>"
        "<th>passed</th><th>what it holds</th></tr>",
        *summary_rows,
        "</table>",
    ]
    if red:
        body.append(f"<h2>Failed ({len(red)})</h2>")
        body += [_detail(r) for r in red]
    if baselined:
        body.append(f"<h2>Baselined failures ({len(baselined)})</h2>")
        body += [_detail(r) for r in baselined]
    if report.unmatched_baseline:
        entries = ", ".join(html.escape(e) for e in report.unmatched_baseline)
        body.append(f"<h2>Baseline entries that named nothing</h2><p>{entries}</p>")
    body.append(f"<h2>Not verified ({len(not_verified)})</h2>")
    if not_verified:
        body.append(
            "<p>These checks could not run against this target. They are not passes.</p>"
            "<table><tr><th></th><th>check</th><th>case</th><th>kind</th><th>why</th></tr>"
        )
        body += [_row(r) for r in not_verified]
        body.append("</table>")
    else:
        body.append("<p>Every check ran.</p>")
    body.append(f"<h2>Every case ({len(ran)} ran)</h2><table>")
    body.append("<tr><th></th><th>check</th><th>case</th><th>kind</th><th>message</th></tr>")
    body += [_row(r) for r in ran]
    body.append("</table></body></html>")
    return "\n".join(body)


def write_html(report: Report, path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(html_report(report) + "\n", encoding="utf-8")
    return path


def write_reports(
    report: Report,
    out_dir: Path,
    *,
    junit: Path | None = None,
    checks_json: Path | None = None,
    html_page: Path | None = None,
) -> dict[str, Path]:
    """All three outputs; each path defaults to its name under ``out_dir``."""
    return {
        "junit": write_junit(report, junit or out_dir / "junit.xml"),
        "json": write_json(report, checks_json or out_dir / "checks.json"),
        "html": write_html(report, html_page or out_dir / "report.html"),
    }


def summary_line(report: Report) -> str:
    t = report.tally()
    return (
        f"verify {report.target} ({report.mode}): {t['cases']} cases: {t['pass']} pass, "
        f"{t['fail']} fail, {t['baselined']} baselined, {t['stale_baseline']} stale baseline, "
        f"{t['not_verified']} not verified, in {report.seconds:.1f}s"
    )
