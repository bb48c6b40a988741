"""The audit's three outputs: JSON (SPEC's shape), JUnit (one case per tool) and HTML."""

from __future__ import annotations

import json
from html import escape
from pathlib import Path
from xml.etree import ElementTree as ET

from harness.audit_upstream.audit import AuditReport
from harness.audit_upstream.classify import Kind
from harness.audit_upstream.findings import Severity

SUITE = "audit-upstream"


def write_json(report: AuditReport, path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(report.as_json(), indent=2, ensure_ascii=False) + "\n")
    return path


def junit_xml(report: AuditReport) -> str:
    failing = sum(1 for t in report.tools if t.failed)
    skipped = sum(1 for t in report.tools if t.kind is Kind.SKIPPED)
    suite = ET.Element(
        "testsuite",
        name=SUITE,
        tests=str(len(report.tools)),
        failures=str(failing),
        errors="0",
        skipped=str(skipped),
    )
    ET.SubElement(
        ET.SubElement(suite, "properties"), "property", name="target", value=report.target
    )
    for tool in report.tools:
        case = ET.SubElement(suite, "testcase", classname=SUITE, name=tool.name)
        fails = [f for f in tool.findings if f.severity is Severity.FAIL]
        if fails:
            failure = ET.SubElement(
                case, "failure", message=", ".join(f.code.value for f in fails), type="fail"
            )
            failure.text = json.dumps([f.as_json() for f in fails], indent=1, ensure_ascii=False)
        elif tool.kind is Kind.SKIPPED:
            ET.SubElement(case, "skipped", message=tool.reason)
        out = [f"kind: {tool.kind.value} ({tool.reason})"]
        out += [f"{f.severity.value}: {f.code.value}" for f in tool.findings]
        ET.SubElement(case, "system-out").text = "\n".join(out)
    return ET.tostring(suite, encoding="unicode", xml_declaration=True)


def write_junit(report: AuditReport, path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(junit_xml(report) + "\n")
    return path


_STYLE = """
body{font-family:system-ui,sans-serif;margin:2rem;max-width:70rem;color:#222}
table{border-collapse:collapse;width:100%}td,th{border:1px solid #ccc;padding:.4rem;
vertical-align:top;text-align:left}.fail{color:#a00;font-weight:600}.warn{color:#a60}
.clean{color:#070}pre{white-space:pre-wrap;font-size:.8rem;margin:.3rem 0}
"""


def html_page(report: AuditReport) -> str:
    rows = []
    for tool in report.tools:
        if tool.findings:
            cells = "".join(
                f'<details><summary class="{f.severity.value}">{escape(f.code.value)} '
                f"({f.severity.value})</summary><pre>"
                f"{escape(json.dumps(f.evidence, indent=1, ensure_ascii=False))}</pre></details>"
                for f in tool.findings
            )
        elif tool.kind in (Kind.LIST, Kind.SEARCH):
            cells = '<span class="clean">no finding</span>'
        else:
            cells = "not probed"
        rows.append(
            f"<tr><td><code>{escape(tool.name)}</code></td><td>{tool.kind.value}</td>"
            f"<td>{escape(tool.reason)}</td><td>{len(tool.record.calls)}</td><td>{cells}</td></tr>"
        )
    failing = sum(1 for t in report.tools if t.failed)
    return (
        "<!doctype html><html lang=en><meta charset=utf-8>"
        f"<title>Upstream audit: {escape(report.target)}</title><style>{_STYLE}</style>"
        f"<h1>Upstream audit</h1><p>Target <code>{escape(report.target)}</code>: "
        f"{len(report.tools)} tools in {report.tools_list_pages} tools/list page(s), "
        f"{failing} with a failing finding.</p>"
        "<table><tr><th>tool</th><th>kind</th><th>why</th><th>calls</th><th>findings</th></tr>"
        + "".join(rows)
        + "</table></html>\n"
    )


def write_html(report: AuditReport, path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(html_page(report))
    return path
