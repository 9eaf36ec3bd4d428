#!/usr/bin/python3
"""Writes results/README.md and results/study.json for scripts/study.

    scripts/study_report.py RESULTS_DIR [--param key=value ...]

Every number in the README is read from the JSON files scripts/study wrote into
RESULTS_DIR (headline.json, compare.json, sweep.json, and policies.md when the policy
table ran) and from its step log (.steps.tsv: name, seconds, command), which becomes
study.json. Its time columns: wall-clock time, and CPU time (user + system, all threads
and child processes), which depends much less on what else the machine is doing.
"""
import argparse
import contextlib
import importlib.util
import io
import json
import os
import sys

GOALS = ["road_10", "road_10_2c", "road_10_3c", "road_5_3c", "city_16", "city_16_2c",
         "city_16_3c", "city_8_10_3c", "monastery_3", "monastery_4", "total_40", "total_50",
         "total_60", "all_tiles"]


def load(d, name):
    path = os.path.join(d, name)
    if not os.path.exists(path):
        return None
    with open(path) as f:
        return json.load(f)


def policy(run):
    c = run["config"]
    return f'`{c["placement_policy"].split(":")[0]}` / `{c["scoring_policy"].split(":")[0]}`'


def short(run):
    return run["config"]["placement_policy"].split(":")[0]


def specs(docs):
    """Every policy spec in the documents, with all its parameters."""
    seen = []
    for doc in docs:
        for run in doc.get("runs", [doc]):
            for key in ("placement_policy", "scoring_policy"):
                spec = run["config"][key]
                if spec not in seen:
                    seen.append(spec)
    return seen


def mean_ci(run):
    r = run["result"]
    return f'{r["mean"]:.2f} [{r["ci95"][0]:.2f}, {r["ci95"][1]:.2f}]'


def game_range(c):
    """The games a config covers, as "[first, end)"."""
    return f'[{c["first_game"]}, {c["first_game"] + c["games"]})'


def against_first(doc):
    """A compare document's differences against its first policy, by the other's index."""
    return {x["second"]: x for x in doc["differences"] if x["first"] == 0}


def signed_ci(x, digits):
    """A paired difference with its 95% CI, signed, e.g. +1.23 [+0.50, +1.96]."""
    return (f'{x["mean"]:+.{digits}f} [{x["ci95"][0]:+.{digits}f}, '
            f'{x["ci95"][1]:+.{digits}f}]')


def rate(entry):
    lo, hi = entry["wilson95"]
    return f'{100 * entry["rate"]:.2f}% [{100 * lo:.2f}, {100 * hi:.2f}]'


def quantiles(run):
    q = run["result"]["quantiles"]
    return f'{q["p10"]} / {q["p50"]} / {q["p90"]}'


def minutes(seconds):
    return f"{seconds:.0f} s" if seconds < 120 else f"{seconds / 60:.1f} min"


def table(header, rows):
    out = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    out += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return "\n".join(out) + "\n"


STEP_HEADER = ["step", "command", "wall time", "CPU time"]


def step_row(s):
    return (s["name"], f'`{s["command"]}`', minutes(s["seconds"]), minutes(s["cpu_seconds"]))


def steps_section(steps, names):
    rows = [step_row(s) for s in steps if s["name"] in names]
    return "Produced by:\n\n" + table(STEP_HEADER, rows) if rows else ""


def headline_section(doc, steps):
    c = doc["config"]
    out = [f"## Headline: {policy(doc)} at the rules' setting\n",
           f'{c["colors"]} colours x {c["meeples"]} meeples, seed {c["seed"]}, games '
           f'{game_range(c)}, played until the 95% CI '
           f'half-width of the mean was at most {doc["until_ci"]["half_width"]} '
           f'(cap {doc["until_ci"]["cap"]:,} games; reached: '
           f'{"yes" if doc["until_ci"]["met"] else "no"}).\n']
    ends = doc["end_reasons"]
    out.append(table(["games", "mean [95% CI]", "std", "p10 / p50 / p90", "min", "max",
                      "no_meeple", "tiles_exhausted", "tiles placed"],
                     [(f'{doc["games"]:,}', mean_ci(doc), f'{doc["result"]["std"]:.2f}',
                       quantiles(doc), doc["result"]["min"], doc["result"]["max"],
                       rate(ends["no_meeple"]), rate(ends["tiles_exhausted"]),
                       f'{doc["tiles_placed"]["mean"]:.1f}')]))
    out.append("\n![result histogram](headline-hist.png)\n")
    out.append(steps_section(steps, {"headline"}))
    return "\n".join(out)


def compare_section(doc, steps):
    runs, d, c = doc["runs"], doc["difference"], doc["config"]
    a, b = short(runs[0]), short(runs[1])
    out = [f"## Comparison: {b} against {a}\n",
           f'Both policies played the same {c["games"]:,} games (games {game_range(c)} '
           f'of seed {c["seed"]}, {c["colors"]} colours x '
           f'{c["meeples"]} meeples): common random numbers, so the difference is taken game '
           f'by game.\n']
    out.append(table(["policy", "mean [95% CI]", "p10 / p50 / p90", "games/s"],
                     [(policy(r), mean_ci(r), quantiles(r),
                       f'{r["performance"]["games_per_second"]:.1f}') for r in runs]))
    out.append(f'\n**{b} - {a}: {signed_ci(d, 2)}** '
               f'points per game (paired 95% CI); {b} wins {d["wins"]:,}, draws '
               f'{d["draws"]:,} and loses {d["losses"]:,} of the {d["games"]:,} games.\n')
    out.append("\n![overlaid histograms](compare-hist.png)\n")
    out.append(steps_section(steps, {"comparison"}))
    return "\n".join(out)


def sweep_section(doc, steps):
    c = doc["config"]
    out = [f'## Difficulty: colours x meeples\n',
           f'{policy(doc["runs"][0])}, {c["games"]:,} games per '
           f'option (games {game_range(c)} of seed '
           f'{c["seed"]}, the same tile orders for every meeple count). Rates with their '
           f'Wilson 95% intervals.\n']
    rows = []
    for r in doc["runs"]:
        g, e = r["goals"], r["end_reasons"]
        rows.append((r["config"]["colors"], r["config"]["meeples"], mean_ci(r), quantiles(r),
                     rate(g["total_40"]), rate(g["total_50"]), rate(g["total_60"]),
                     rate(g["all_tiles"]), f'{100 * e["no_meeple"]["rate"]:.1f}% / '
                     f'{100 * e["tiles_exhausted"]["rate"]:.1f}%'))
    out.append(table(["colours", "meeples", "mean [95% CI]", "p10 / p50 / p90", "total_40",
                      "total_50", "total_60", "all_tiles", "end: no_meeple / tiles_exhausted"],
                     rows))
    for t in doc.get("targets", []):
        out.append(f'\nClosest to {t["target"]} = {t["value"]}: **{t["colors"]} colours x '
                   f'{t["meeples"]} meeples** ({t["achieved"]:.4g}).\n')
    out.append("\n![difficulty curve](sweep-curve.png)\n")
    out.append(steps_section(steps, {"sweep"}))
    return "\n".join(out)


def goal_section(headline, compare):
    cols, runs = [], []
    if headline:
        cols.append(f"{short(headline)} (headline, {headline['games']:,} games)")
        runs.append(headline)
    if compare:
        for r in compare["runs"]:
            cols.append(f"{short(r)} ({r['games']:,} games)")
            runs.append(r)
    if not runs:
        return ""
    header = ["goal"] + cols
    if compare:
        a, b = short(compare["runs"][0]), short(compare["runs"][1])
        header.append(f"{b} - {a} (paired 95% CI)")
    rows = []
    for g in GOALS:
        row = [g] + [rate(r["goals"][g]) for r in runs]
        if compare:
            e = compare["difference"]["goals"][g]
            row.append(f'{100 * e["difference"]:+.2f} [{100 * e["ci95"][0]:+.2f}, '
                       f'{100 * e["ci95"][1]:+.2f}] pp')
        rows.append(row)
    out = ["## Goals\n",
           "The 14 goals of the rules at the rules' setting: share of games achieving each, "
           "with the Wilson 95% interval from the files.\n", table(header, rows)]
    if headline:
        out.append("\n![goal rates, headline](headline-goals.png)\n")
    if compare:
        out.append("\n![paired goal-rate differences, comparison](compare-goals.png)\n")
    return "\n".join(out)


def paired_baseline(strong_sweep, baseline):
    """True when `baseline` (the difficulty table's player on the strong sweep's games,
    strong-sweep-baseline.json) played exactly the strong sweep's games and options."""
    if not baseline:
        return False
    a, b = strong_sweep["config"], baseline["config"]
    options = lambda doc: sorted((r["config"]["colors"], r["config"]["meeples"]) for r in doc["runs"])
    return (all(a.get(k) == b.get(k) for k in ("seed", "first_game", "games", "scoring_policy"))
            and options(strong_sweep) == options(baseline))


def played_in(doc, label):
    """How long a file's games took to play, from its own record (`performance`: a merged
    file sums its shards' seconds), for steps whose pieces were played apart."""
    perf = doc.get("performance", {})
    if "seconds" not in perf:
        return ""
    shards = perf.get("shards")
    return (f'`{label}` played these games in {minutes(perf["seconds"])} of wall-clock time on '
            f'{perf.get("threads", "?")} threads' + (f', in {shards} shards joined by `merge`' if shards else "")
            + ".\n")


def strong_section(rungs, headline, sweep, steps, baseline=None):
    """Strong play beside the heuristic: the headline's 14 goals and the difficulty sweep.
    rungs: (label, headline document, sweep document, headline step, sweep step) per strong
    player, strongest first: `search` at its defaults (STUDY_STRONG), then the second rung
    (STUDY_STRONG_RUNG), either document None when missing. baseline: the difficulty
    table's player on the strong sweep's games (strong-sweep-baseline.json); without it (or
    when it played other games) the heuristic columns are the difficulty table's, over all
    its games, and the text says so."""
    out = ["## Strong play: how much the answer depends on the player\n"]
    heads = [(label, h, step) for label, h, _, step, _ in rungs if h]
    if heads:
        label, strong, _ = heads[0]
        c, prog = strong["config"], strong.get("program", {})
        out.append(f'`{label}` / `{c["scoring_policy"].split(":")[0]}` (STUDY_STRONG: the strongest player, '
                   f'the one behind `advise` and `analyse`) on games {game_range(c)} of seed {c["seed"]}, '
                   f'{c["colors"]} colours x {c["meeples"]} meeples, carcsolo built from commit '
                   f'{prog.get("git", "?")}{dirty_note(prog)}.'
                   + (f' Beside it the second rung, `{heads[1][0]}` (STUDY_STRONG_RUNG: search\'s cheap '
                      f'setting with the learned value at its rollouts\' leaves, about a tenth of the time), '
                      f'on the same games' if len(heads) > 1 else "")
                   + f', and the headline\'s {short(headline) if headline else "policy"}: the same rules, '
                   f'weaker players.\n')
        runs = [h for _, h, _ in heads] + ([headline] if headline else [])
        names = [f"`{n}`" for n, _, _ in heads] + ([short(headline)] if headline else [])
        out.append(table(["policy", "games", "mean [95% CI]", "p10 / p50 / p90", "no_meeple",
                          "tiles_exhausted"],
                         [(n, f'{r["games"]:,}', mean_ci(r), quantiles(r),
                           rate(r["end_reasons"]["no_meeple"]),
                           rate(r["end_reasons"]["tiles_exhausted"]))
                          for n, r in zip(names, runs)]))
        out.append("\nThe 14 goals (share of games, Wilson 95% interval):\n")
        out.append(table(["goal"] + [f"{n} ({r['games']:,} games)" for n, r in zip(names, runs)],
                         [[g] + [rate(r["goals"][g]) for r in runs] for g in GOALS]))
        out.append("\n![result histogram, strong play](strong-headline-hist.png)\n")
        out.append(played_in(strong, label))
        out.append(steps_section(steps, {step for _, _, step in heads}))
    sweeps = [(label, sw, step) for label, _, sw, _, step in rungs if sw]
    if sweeps:
        label, strong_sweep, _ = sweeps[0]
        c = strong_sweep["config"]
        paired = paired_baseline(strong_sweep, baseline)
        weak_doc = baseline if paired else sweep
        beside = ""
        if len(sweeps) > 1:
            beside += f', beside the second rung, `{sweeps[1][0]}`, on the same games'
        if paired:
            prog = baseline.get("program", {})
            beside += (f', and the difficulty table\'s player, {policy(baseline["runs"][0])}, on '
                       f'the same games (strong-sweep-baseline.json, carcsolo built from commit '
                       f'{prog.get("git", "?")}{dirty_note(prog)}): every column of a row is of '
                       f'the same {c["games"]:,} deals')
        elif sweep:
            w = sweep["config"]
            beside += (f', and the difficulty table\'s {policy(sweep["runs"][0])} over its '
                       f'{w["games"]:,} games per option (games {game_range(w)} of seed {w["seed"]}): '
                       f'the heuristic columns are not of the strong columns\' games alone')
        out.append(f'\n### Difficulty at strong play\n\n`{label}`, '
                   f'{c["games"]:,} games per option (games {game_range(c)} of seed {c["seed"]})'
                   f'{beside}. Rates with Wilson 95% intervals.\n')
        by_option = lambda doc: {(r["config"]["colors"], r["config"]["meeples"]): r for r in doc["runs"]}
        weak = by_option(weak_doc) if weak_doc else {}
        rung = by_option(sweeps[1][1]) if len(sweeps) > 1 else None
        rows = []
        for r in strong_sweep["runs"]:
            k = (r["config"]["colors"], r["config"]["meeples"])
            g = r["goals"]
            w = weak.get(k)
            second = [mean_ci(rung[k]) if k in rung else ""] if rung is not None else []
            rows.append([k[0], k[1], mean_ci(r)] + second + [mean_ci(w) if w else "",
                        rate(g["total_40"]), rate(g["total_50"]), rate(g["total_60"]),
                        rate(w["goals"]["total_60"]) if w else "", rate(g["all_tiles"])])
        weak_name = short(weak_doc["runs"][0]) if weak_doc else "weak"
        out.append(table(["colours", "meeples", "mean, strong"]
                         + (["mean, second rung"] if rung is not None else [])
                         + [f"mean, {weak_name}", "total_40", "total_50", "total_60",
                            f"total_60, {weak_name}", "all_tiles"], rows))
        for t in strong_sweep.get("targets", []):
            out.append(f'\nAt strong play, closest to {t["target"]} = {t["value"]}: '
                       f'**{t["colors"]} colours x {t["meeples"]} meeples** ({t["achieved"]:.4g}).\n')
        out.append("\n![difficulty curve, strong play](strong-sweep-curve.png)\n")
        out.append(played_in(strong_sweep, label))
        out.append(steps_section(steps, {step for _, _, step in sweeps}
                                 | ({"strong sweep baseline"} if paired else set())))
    return "\n".join(out)


def scoring_section(docs, steps):
    """The scoring orders on the same games, one compare file per placement policy."""
    out = ["## Scoring orders on the same games\n",
           "Each placement policy played the same games under the four scoring orders "
           "(common random numbers: the same tiles, and the placement policy's own random "
           "stream). Differences are game by game against `lowest-first`, with their paired "
           "95% CI: `best` should not be below it, and `as-found` not above it.\n"]
    for doc in docs:
        runs, c = doc["runs"], doc["config"]
        diffs = against_first(doc)
        rows = []
        for i, r in enumerate(runs):
            d = diffs.get(i)
            diff = signed_ci(d, 3) if d else ""
            wdl = f'{d["wins"]:,} / {d["draws"]:,} / {d["losses"]:,}' if d else ""
            rows.append((f'`{r["config"]["scoring_policy"].split(":")[0]}`', mean_ci(r),
                         quantiles(r), diff, wdl))
        out.append(f'**placement `{short(runs[0])}`**, {c["games"]:,} games (games '
                   f'{game_range(c)} of seed {c["seed"]}):\n')
        out.append(table(["scoring order", "mean [95% CI]", "p10 / p50 / p90",
                          "minus lowest-first [95% CI]", "games better / same / worse"], rows))
    out.append(steps_section(steps, {s["name"] for s in steps if s["name"].startswith("scoring orders")}))
    return "\n".join(out)


def varying_params(specs):
    """Per spec, the parameters whose values differ between the specs given ("k=v,..."). A
    parameter a spec lacks is at its default: canonical specs leave out parameters added
    after files named the policy (`leaf` of search), so it is not named for that spec."""
    parsed = [dict(kv.split("=") for kv in sp.split(":", 1)[1].split(",")) if ":" in sp else {}
              for sp in specs]
    keys = sorted({k for p in parsed for k in p if len({q.get(k) for q in parsed}) > 1})
    return [",".join(f"{k}={p[k]}" for k in keys if k in p) for p in parsed]


def mc_curve_section(d, doc, steps):
    """Strength against time per move: mean and total_60 of every policy and budget."""
    runs = doc["runs"]
    diffs = against_first(doc)
    specs = [r["config"]["placement_policy"] for r in runs]
    names = [sp.split(":")[0] for sp in specs]
    labels = [""] * len(runs)
    for name in dict.fromkeys(names):
        idx = [i for i, n in enumerate(names) if n == name]
        for i, lab in zip(idx, varying_params([specs[i] for i in idx])):
            labels[i] = lab
    rows = []
    for i, r in enumerate(runs):
        perf = r["performance"]
        # Seconds of one thread per move: the run's threads were busy for `seconds`.
        moves = r["games"] * r["tiles_placed"]["mean"]
        ms = 1000 * perf["seconds"] * perf["threads"] / moves if moves else 0
        x = diffs.get(i)
        diff = signed_ci(x, 2) if x else ""
        t60 = r["goals"]["total_60"]
        rows.append((f"`{names[i]}`" + (f" {labels[i]}" if labels[i] else ""),
                     mean_ci(r), diff, f'{100 * t60["rate"]:.2f}%',
                     f'{r["tiles_placed"]["mean"]:.1f}', f"{ms:.2f}"))
    c = doc["config"]
    first = names[0]
    out = ["## Strength against time per move\n",
           f'Every policy at rising budgets (the other parameters at their defaults) and '
           f'`{first}` (first row), on the same {c["games"]:,} games of seed {c["seed"]} '
           f'(carcsolo built from commit {doc.get("program", {}).get("git", "?")}), scoring '
           f'`{runs[0]["config"]["scoring_policy"]}`. Time per move: thread-seconds of the run '
           f'over the moves played (one machine, shared by the other policies of the run).\n',
           table(["policy", "mean [95% CI]", f"minus {first} [paired 95% CI]", "total_60",
                  "tiles placed", "ms per move"], rows)]
    # Drawn by scripts/plot.py (`plot.py --time-curve mc-curve.json` draws it again alone).
    plot = plot_module()
    if plot.plotting_available():
        with contextlib.redirect_stdout(io.StringIO()):  # plot.py names what it wrote
            plot.plot_time_curve(doc, os.path.join(d, "mc-curve.png"))
        out.append("\n![strength against time per move](mc-curve.png)\n")
    out.append(steps_section(steps, {"mc strength"}))
    return "\n".join(out)


def plot_module():
    """scripts/plot.py, loaded from beside this script."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "plot.py")
    spec = importlib.util.spec_from_file_location("plot", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def ladder_section(doc, steps):
    """The skill ladder: every option of the difficulty sweep for every placement policy."""
    runs = doc["runs"]
    c = doc["config"]
    placements = c.get("placements", [c["placement_policy"]])
    per = len(runs) // len(placements)
    names = [p.split(":")[0] for p in placements]
    options = [(r["config"]["colors"], r["config"]["meeples"]) for r in runs[:per]]
    out = ["## Skill ladder: the difficulty of every option for every player\n",
           f'One `sweep` with every placement policy (scoring `{c["scoring_policy"]}`), '
           f'{c["games"]:,} games of seed {c["seed"]} per option and policy, the same games '
           f'for all. Mean result [95% CI]; total_60 rate below.\n']
    header = ["colours x meeples"] + [f"`{n}`" for n in names]
    rows, rows60 = [], []
    for i, (col, mp) in enumerate(options):
        rows.append([f"{col} x {mp}"] + [mean_ci(runs[p * per + i]) for p in range(len(placements))])
        rows60.append([f"{col} x {mp}"] + [f'{100 * runs[p * per + i]["goals"]["total_60"]["rate"]:.1f}%'
                                          for p in range(len(placements))])
    out += [table(header, rows), "\n", table(header, rows60)]
    # The ranking: for each pair of neighbours on the ladder, at how many options the
    # stronger one's mean is higher, and at how many their 95% intervals do not overlap.
    pairs = []
    for p in range(1, len(placements)):
        lo = [runs[(p - 1) * per + i]["result"] for i in range(per)]
        hi = [runs[p * per + i]["result"] for i in range(per)]
        above = sum(h["mean"] > l["mean"] for h, l in zip(hi, lo))
        apart = sum(h["ci95"][0] > l["ci95"][1] for h, l in zip(hi, lo))
        pairs.append(f'`{names[p]}` over `{names[p - 1]}`: higher at {above} of {per} options, '
                     f'the intervals apart at {apart}')
    if pairs:
        out.append("\nThe ranking, neighbour by neighbour: " + "; ".join(pairs) + ".\n")
    out.append(steps_section(steps, {"skill ladder"}))
    return "\n".join(out)


def ceiling_section(docs, steps):
    """The clairvoyant reference at one or more beam widths: a reference that cheats, against a
    real policy (the same policy on the same games in every file), whose own line the beam
    keeps (files written before that have no `policy_line`)."""
    c = docs[0]["config"]
    against = docs[0]["against"]["results"]
    name = against["config"]["placement_policy"].split(":")[0]
    games = c["games"]
    rows = []
    for doc in docs:
        d = doc["against"]["difference"]
        ce = doc["ceiling"]
        better = (f'{ce["better"]} of {games}', f'{ce["beam_alone_better"]} of {games}') \
            if ce.get("policy_line") else ("", "")
        rows.append(("`ceiling` (REFERENCE: sees the stacks), width " + str(ce["width"]),
                     mean_ci(doc), f'{100 * doc["goals"]["total_60"]["rate"]:.1f}%',
                     f'{d["mean"]:+.2f} [{d["ci95"][0]:+.2f}, {d["ci95"][1]:+.2f}]') + better)
    rows.append((f"`{name}`", mean_ci(against), f'{100 * against["goals"]["total_60"]["rate"]:.1f}%',
                 "", "", ""))
    out = ["## The clairvoyant reference (`ceiling`, a reference that cheats)\n",
           f'`carcsolo ceiling` on games {c["first_game"]}..{c["first_game"] + c["games"] - 1} of '
           f'seed {c["seed"]}: a beam search that sees the dealt stacks, which no player may. It '
           f'is not a policy. Each turn it keeps the best positions by the heuristic\'s value and '
           f'also the position of `{name}`\'s own line of the game, so its result is at least '
           f'`{name}`\'s on every deal. It is the best line found: a lower bound on what a deal '
           f'allows, not an upper one (the name `ceiling` is the command\'s). "Beam better" counts '
           f'the games where it found a line better than `{name}`\'s; "on its own merit" those '
           f'where a line that never went through a position kept only for being `{name}`\'s '
           f'did. A wider beam keeps more positions per turn and finds better lines.\n',
           table(["player", "mean [95% CI]", "total_60", f"reference minus `{name}` [paired 95% CI]",
                  "beam better", "on its own merit"], rows)]
    out.append(steps_section(steps, {"ceiling", "ceiling, wide"}))
    return "\n".join(out)


def board_section(d, steps):
    if not os.path.exists(os.path.join(d, "board-example.svg")):
        return ""
    out = ["## A typical game\n",
           "The game with the median result among 25 games of the strongest policy, drawn by "
           "`carcsolo replay` (tile turn numbers in the corners; meeples still on the board in "
           "their colours). [board-example.html](board-example.html) steps through it turn by "
           "turn (download it and open it in a browser).\n"]
    pic = "board-example.png" if os.path.exists(os.path.join(d, "board-example.png")) else "board-example.svg"
    out.append(f"\n![a typical game]({pic})\n")
    out.append(steps_section(steps, {"board example"}))
    return "\n".join(out)


def policy_table_section(d, steps):
    path = os.path.join(d, "policies.md")
    if not os.path.exists(path):
        return ""
    with open(path) as f:
        text = f.read()
    # One level below this page's sections.
    text = "\n".join("##" + line if line.startswith("#") else line for line in text.splitlines())
    source = "From [policies.md](policies.md) and policies.json."
    if not any(s["name"] == "policy table" for s in steps):
        source += (" This run of `scripts/study` skipped the policy table "
                   "(`STUDY_SKIP_POLICY_TABLE`): both files are from an earlier run of "
                   "`scripts/policy_table`, which the git history of results/ dates.")
    out = ["## Policy table\n", source + "\n", text]
    if os.path.exists(os.path.join(d, "policies-hist.png")):
        out.append("\n![policies](policies-hist.png)\n")
    out.append(steps_section(steps, {"policy table"}))
    return "\n".join(out)


def dirty_note(program):
    """How the program's tree stood when it was built (results files record it since
    `program.dirty` was added; older files do not say)."""
    if "dirty" not in program:
        return ""
    return " with uncommitted changes" if program["dirty"] else ", unmodified"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dir")
    ap.add_argument("--param", action="append", default=[], help="key=value for study.json")
    args = ap.parse_args()
    d = args.dir
    steps = []
    steps_path = os.path.join(d, ".steps.tsv")
    with open(steps_path) as f:
        for line in f:
            name, seconds, cpu, command = line.rstrip("\n").split("\t", 3)
            steps.append({"name": name, "seconds": float(seconds), "cpu_seconds": float(cpu),
                          "command": command})
    params = dict(p.split("=", 1) for p in args.param)
    if "only" in params:
        # A STUDY_ONLY run keeps the other steps' files and records; the steps an earlier
        # STUDY_ONLY run did alone stay named beside this run's (a whole run deletes
        # study.json first).
        earlier = (load(d, "study.json") or {}).get("parameters", {}).get("only", "")
        names = [n for n in earlier.split(",") + params["only"].split(",") if n]
        params["only"] = ",".join(dict.fromkeys(names))
    headline, compare, sweep = load(d, "headline.json"), load(d, "compare.json"), load(d, "sweep.json")
    program = next((x["program"] for x in (headline, compare, sweep) if x), {})
    total = sum(s["seconds"] for s in steps)
    cpu = sum(s["cpu_seconds"] for s in steps)

    parts = ["# Results\n",
             f"Written by `scripts/study` (seed {params.get('seed', '?')}, "
             f"{params.get('threads', '?')} threads, carcsolo {program.get('version', '?')} "
             f"built from commit {program.get('git', '?')}{dirty_note(program)}; the commit "
             f"that adds these files necessarily comes after it), which deletes and rewrites this page, the JSON "
             f"files and the plots below. The numbers are read from the JSON files by "
             f"`scripts/study_report.py`. The steps took {minutes(total)} of wall-clock time "
             f"and {minutes(cpu)} of CPU time in all. Parameters: "
             + ", ".join(f"{k}={v}" for k, v in params.items() if k != "only") + "."
             + (f" The steps {params['only']} were run alone later (STUDY_ONLY), after the whole run; "
                "each section names the commit of its files where it differs." if "only" in params else "")
             + " Policies, with every "
             "parameter: " + ", ".join(f"`{s}`" for s in specs(
                 [x for x in (headline, compare, sweep, load(d, "strong-headline.json"),
                                load(d, "strong-rung-headline.json")) if x])) + ".\n",
             policy_table_section(d, steps)]
    if headline:
        parts.append(headline_section(headline, steps))
    if compare:
        parts.append(compare_section(compare, steps))
    if sweep:
        parts.append(sweep_section(sweep, steps))
    parts.append(goal_section(headline, compare))
    rungs = [(params.get("strong", "?"), load(d, "strong-headline.json"), load(d, "strong-sweep.json"),
              "strong headline", "strong sweep"),
             (params.get("strong_rung", "?"), load(d, "strong-rung-headline.json"),
              load(d, "strong-rung-sweep.json"), "second rung headline", "second rung sweep")]
    if any(h or sw for _, h, sw, _, _ in rungs):
        parts.append(strong_section(rungs, headline, sweep, steps, load(d, "strong-sweep-baseline.json")))
    scoring = [x for x in (load(d, "scoring-random.json"), load(d, "scoring-heuristic.json")) if x]
    if scoring:
        parts.append(scoring_section(scoring, steps))
    ladder = load(d, "ladder.json")
    if ladder:
        parts.append(ladder_section(ladder, steps))
    ceilings = [x for x in (load(d, "ceiling.json"), load(d, "ceiling-wide.json")) if x]
    if ceilings:
        parts.append(ceiling_section(ceilings, steps))
    mc_curve = load(d, "mc-curve.json")
    if mc_curve:
        parts.append(mc_curve_section(d, mc_curve, steps))
    parts.append(board_section(d, steps))
    parts.append("## All steps\n\n" + table(STEP_HEADER, [step_row(s) for s in steps]))
    with open(os.path.join(d, "README.md"), "w") as f:
        f.write("\n".join(p for p in parts if p))
    with open(os.path.join(d, "study.json"), "w") as f:
        json.dump({"format": "carcassonne-solo-study/1", "parameters": params, "steps": steps,
                   "seconds": total, "cpu_seconds": cpu}, f, indent=2)
        f.write("\n")
    os.remove(steps_path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
