"""ctest: scripts/function_lengths finds a function one line over the limit, and only
that: braces in strings, raw strings, character literals and comments, digit separators,
a namespace-scope table, a constructor's initializer list and a lambda inside a function
are read as what they are; --except leaves a folder out.

Usage: function_lengths_test.py FUNCTION_LENGTHS
"""
import pathlib
import subprocess
import sys
import tempfile


def check(cond, what):
    if not cond:
        print("FAIL:", what)
        sys.exit(1)


def body(lines):
    """`lines` statements, one a line."""
    return "".join(f"  x += {i};\n" for i in range(lines))


def tricky(lines):
    """A function of `lines` lines (brace to brace) whose statements hide braces."""
    inner = [
        '  const char* a = "{ not a brace";\n',
        '  const char* b = R"x(} { "still" )x";\n',
        "  const char c = '{';\n",
        "  const char d = '\\'';\n",
        "  // } a comment\n",
        "  /* { another\n     } */\n",
        "  const long e = 1'000'000;\n",
        "  auto f = [&] {\n    return x;\n  };\n",
    ]
    used = sum(s.count("\n") for s in inner)
    return ("int tricky(int x) {\n" + "".join(inner) + body(lines - 3 - used) + "  return x;\n}\n")


def run(script, top, *args):
    p = subprocess.run([sys.executable, script, *args, str(top)], capture_output=True, text=True)
    return p.returncode, p.stdout + p.stderr


def main():
    script = sys.argv[1]
    with tempfile.TemporaryDirectory() as d:
        top = pathlib.Path(d)
        for room in ("core", "policies", "sim/cli"):
            (top / room).mkdir(parents=True)
        table = "constexpr int kTable[] = {\n" + "".join(f"  {i},\n" for i in range(150)) + "};\n"
        ctor = ("struct S {\n  S(int v) : a_{v}, b_(v) {\n" + body(40) + "  }\n  int a_, b_;\n  int x = 0;\n};\n")
        (top / "core/a.cpp").write_text(table + tricky(100) + ctor)
        rc, out = run(script, top)
        check(rc == 0, f"a function of 100 lines, a table and a constructor pass: {out}")
        rc, out = run(script, top, "--list")
        check("  100  core/a.cpp:153  tricky" in out, f"tricky is 100 lines from line 153: {out}")
        check("   42  core/a.cpp:254  S\n" in out, f"the constructor's body, after its initializers: {out}")

        (top / "policies/b.cpp").write_text("namespace n {\n" + tricky(101) + "}\n")
        rc, out = run(script, top)
        check(rc == 1, f"a function of 101 lines fails: {out}")
        check("policies/b.cpp:2: tricky runs 101 lines" in out, f"and is named with its line: {out}")
        check("core/a.cpp" not in out, f"nothing else is listed: {out}")

        # a lambda at namespace scope is a function of its own
        (top / "policies/b.cpp").write_text("constexpr auto kBuilt = [] {\n" + "  int x = 0;\n" + body(100) + "  return x;\n}();\n")
        rc, out = run(script, top)
        check(rc == 1 and "kBuilt (lambda) runs 104 lines" in out, f"a long lambda at namespace scope: {out}")
        (top / "policies/b.cpp").unlink()

        (top / "sim/cli/c.cpp").write_text(tricky(120))
        rc, out = run(script, top)
        check(rc == 1 and "sim/cli/c.cpp:1: tricky runs 120 lines" in out, f"sim/cli is checked: {out}")
        rc, out = run(script, top, "--except", "sim/cli")
        check(rc == 0, f"--except sim/cli leaves it out: {out}")
    print("function_lengths: ok")


if __name__ == "__main__":
    main()
