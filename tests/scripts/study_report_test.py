"""ctest: scripts/study_report.py pairs the strong-play difficulty table with the difficulty
table's player on the same games (strong-sweep-baseline.json), says so, and says what the
heuristic columns are when that file is missing or played other games; the second rung
(strong-rung-sweep.json) has its own column; a STUDY_ONLY run
keeps naming the steps an earlier one ran alone.

Usage: study_report_test.py STUDY_REPORT_PY RESULTS_DIR
(RESULTS_DIR: the checked-in results/, for a real strong-sweep.json and sweep.json)
"""
import copy
import json
import os
import shutil
import subprocess
import sys
import tempfile


def check(cond, what):
    if not cond:
        print("FAIL:", what)
        sys.exit(1)


def write(d, name, doc):
    with open(os.path.join(d, name), "w") as f:
        json.dump(doc, f)


def report(script, d, only=None, study=None):
    """Runs the generator on d (a step log of the two sweeps) and returns the page and the
    study.json it wrote."""
    with open(os.path.join(d, ".steps.tsv"), "w") as f:
        f.write("strong sweep\t60.0\t60.0\tcarcsolo sweep STRONG\n")
        f.write("strong sweep baseline\t2.0\t2.0\tcarcsolo sweep BASELINE\n")
    if study is not None:
        write(d, "study.json", study)
    args = [sys.executable, script, d, "--param", "seed=1", "--param", "strong=search",
            "--param", "strong_rung=search:leaf=1"]
    if only:
        args += ["--param", "only=" + only]
    subprocess.run(args, check=True)
    with open(os.path.join(d, "README.md")) as f, open(os.path.join(d, "study.json")) as g:
        return f.read(), json.load(g)


def rows(page):
    """The strong-play difficulty table's rows, by (colours, meeples): its cells."""
    section = page.split("### Difficulty at strong play", 1)[1]
    out = {}
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip("|").split("|")]
        if len(cells) in (9, 10) and cells[0].isdigit():
            out[(int(cells[0]), int(cells[1]))] = cells
    return out


def main():
    script, results = sys.argv[1], sys.argv[2]
    with open(os.path.join(results, "strong-sweep.json")) as f:
        strong = json.load(f)
    with open(os.path.join(results, "sweep.json")) as f:
        sweep = json.load(f)
    check(sweep["config"]["games"] > strong["config"]["games"],
          "the test wants a difficulty table over more games than the strong sweep")
    # The baseline: the heuristic on the strong sweep's games, with means no other file has.
    baseline = copy.deepcopy(sweep)
    baseline["config"]["games"] = strong["config"]["games"]
    for i, r in enumerate(baseline["runs"]):
        r["config"]["games"] = strong["config"]["games"]
        r["result"]["mean"], r["result"]["ci95"] = 11.0 + i, [10.5 + i, 11.5 + i]
        r["goals"]["total_60"] = {"rate": 0.0123, "wilson95": [0.01, 0.02]}
    with tempfile.TemporaryDirectory() as d:
        write(d, "strong-sweep.json", strong)
        write(d, "sweep.json", sweep)

        # Paired: every heuristic cell is the baseline's, and the text says so.
        write(d, "strong-sweep-baseline.json", baseline)
        page, _ = report(script, d)
        got = rows(page)
        check(len(got) == len(strong["runs"]), f"{len(got)} rows")
        for i, r in enumerate(baseline["runs"]):
            cells = got[(r["config"]["colors"], r["config"]["meeples"])]
            check(cells[3] == f"{11.0 + i:.2f} [{10.5 + i:.2f}, {11.5 + i:.2f}]",
                  f"heuristic mean from the baseline: {cells}")
            check(cells[7] == "1.23% [1.00, 2.00]", f"heuristic total_60 from the baseline: {cells}")
        check("on the same games (strong-sweep-baseline.json" in page, "the paired text")
        check("BASELINE" in page, "the baseline's step is listed under the table")

        # The baseline on other games: not used; the difficulty table's columns, said so.
        other = copy.deepcopy(baseline)
        other["config"]["games"] = 500
        write(d, "strong-sweep-baseline.json", other)
        for page in (report(script, d)[0],):
            check("11.00 [10.50, 11.50]" not in page, "a baseline on other games was used")
            cells = rows(page)[(3, 4)]
            want = next(r for r in sweep["runs"] if (r["config"]["colors"], r["config"]["meeples"]) == (3, 4))
            check(cells[3].startswith(f'{want["result"]["mean"]:.2f} '), f"fallback cells {cells}")
            check(f'over its {sweep["config"]["games"]:,} games per option' in page
                  and "not of the strong columns' games alone" in page, "the fallback is said")
            check("same games (strong-sweep-baseline.json" not in page, "no pairing claimed")

        # The second rung: its own column, after the strong one, and the rest as before.
        rung = copy.deepcopy(strong)
        for i, r in enumerate(rung["runs"]):
            r["result"]["mean"], r["result"]["ci95"] = 31.0 + i, [30.5 + i, 31.5 + i]
        write(d, "strong-rung-sweep.json", rung)
        write(d, "strong-sweep-baseline.json", baseline)
        page, _ = report(script, d)
        got = rows(page)
        for i, r in enumerate(baseline["runs"]):
            cells = got[(r["config"]["colors"], r["config"]["meeples"])]
            check(len(cells) == 10, f"ten cells with a second rung: {cells}")
            check(cells[3] == f"{31.0 + i:.2f} [{30.5 + i:.2f}, {31.5 + i:.2f}]", f"second rung mean: {cells}")
            check(cells[4] == f"{11.0 + i:.2f} [{10.5 + i:.2f}, {11.5 + i:.2f}]", f"heuristic mean: {cells}")
            check(cells[8] == "1.23% [1.00, 2.00]", f"heuristic total_60: {cells}")
        check("beside the second rung, `search:leaf=1`, on the same games" in page, "the rung is named")
        os.remove(os.path.join(d, "strong-rung-sweep.json"))

        # No baseline at all: the same fallback.
        os.remove(os.path.join(d, "strong-sweep-baseline.json"))
        page, _ = report(script, d)
        check("not of the strong columns' games alone" in page, "the fallback without the file")

        # STUDY_ONLY: the steps an earlier STUDY_ONLY run did alone stay named.
        _, study = report(script, d, only="strong sweep baseline",
                          study={"parameters": {"only": "strong headline,strong sweep"}})
        check(study["parameters"]["only"] == "strong headline,strong sweep,strong sweep baseline",
              f'only {study["parameters"]["only"]!r}')
    print("ok")


if __name__ == "__main__":
    main()
