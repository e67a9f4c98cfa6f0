"""scripts/dev/unity_names.py fails when two test files of one binary define
the same name (the unity build could bind a call to the other file's helper)
and passes when every name is defined once; GoogleTest's TEST macros and
PrintTo overloads are not names it counts. In a library's files only
file-local names count. Runs Universal Ctags, no build. The checkout itself
is checked by the ctest Build.FilesOfOneUnityBuildShareNoName."""

import os
import subprocess
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), os.pardir, os.pardir))
SCRIPT = os.path.join(ROOT, "scripts", "dev", "unity_names.py")


def check(tmp_path, files):
    for name, text in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return subprocess.run([sys.executable, SCRIPT, str(tmp_path)], capture_output=True, text=True, check=False)


HEAD = "#include <gtest/gtest.h>\nnamespace photonsim {\nnamespace {\n"


def test_overloads_in_two_files_of_one_binary_fail(tmp_path):
    result = check(tmp_path, {
        "sim/a_test.cpp": HEAD + "int fabric(int gpus) { return gpus; }\n}\nTEST(A, B) { EXPECT_EQ(fabric(1), 1); }\n}\n",
        "sim/b_test.cpp": HEAD + "int fabric(int gpus, int ports = 2) { return gpus * ports; }\n}\n"
                          "TEST(C, D) { EXPECT_EQ(fabric(1), 2); }\n}\n",
    })
    assert result.returncode == 1, result.stdout + result.stderr
    assert ("sim_tests: 'fabric' means 2 things (defined in a_test.cpp; defined in b_test.cpp) in files of one "
            "unity build: sim/a_test.cpp, sim/b_test.cpp") in result.stdout


def test_a_type_and_a_constant_count_too(tmp_path):
    result = check(tmp_path, {
        "core/a_test.cpp": HEAD + "struct Case { int n; };\nconstexpr int kGpus = 4;\n}\n}\n",
        "core/sub/b_test.cpp": HEAD + "struct Case { double x; };\nconstexpr int kGpus = 8;\n}\n}\n",
    })
    assert result.returncode == 1
    assert "'Case' means 2 things" in result.stdout
    assert "'kGpus' means 2 things" in result.stdout


def test_a_helper_namespace_imported_into_one_file_clashes_with_anothers_own_helper(tmp_path):
    helpers = ("#pragma once\nnamespace photonsim::checks {\ninline int fabric(int gpus) { return gpus; }\n"
               "inline int every_n(int n) { return n; }\n}\n")
    result = check(tmp_path, {
        "schedules/checks.h": helpers,
        "schedules/a_test.cpp": HEAD + "using namespace checks;\n}\nTEST(A, B) { EXPECT_EQ(fabric(1), 1); }\n}\n",
        "schedules/b_test.cpp": HEAD + "int fabric(long gpus) { return 2 * static_cast<int>(gpus); }\n}\n}\n",
        "schedules/c_test.cpp": HEAD + "using checks::every_n;\n}\n}\n",
        "schedules/d_test.cpp": HEAD + "int every_n(int n, int m) { return n + m; }\n}\n}\n",
    })
    assert result.returncode == 1
    assert "'fabric' means 2 things (checks::fabric; defined in b_test.cpp)" in result.stdout
    assert "'every_n' means 2 things (checks::every_n; defined in d_test.cpp)" in result.stdout
    # The same helper imported by two files is one thing.
    (tmp_path / "schedules" / "b_test.cpp").unlink()
    (tmp_path / "schedules" / "d_test.cpp").write_text(HEAD + "using namespace checks;\n}\n}\n")
    result = check(tmp_path, {})
    assert result.returncode == 0, result.stdout + result.stderr


def test_distinct_names_tests_and_print_to_pass(tmp_path):
    result = check(tmp_path, {
        "sim/a_test.cpp": HEAD + "struct X {};\nvoid PrintTo(const X&, std::ostream*) {}\n"
                          "int a_fabric(int gpus) { int local = gpus; return local; }\n}\n"
                          "TEST(A, B) { EXPECT_EQ(a_fabric(1), 1); }\n}\n",
        "sim/b_test.cpp": HEAD + "struct Y {};\nvoid PrintTo(const Y&, std::ostream*) {}\n"
                          "int b_fabric(int gpus) { int local = 2 * gpus; return local; }\n}\n"
                          "TEST(A, C) { EXPECT_EQ(b_fabric(1), 2); }\n}\n",
        # Another binary may reuse a name: its files never share a translation unit with sim's.
        "cli/c_test.cpp": HEAD + "int a_fabric(int gpus) { return gpus; }\n}\n}\n",
    })
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout == ""



def test_file_local_names_of_one_library_fail_its_public_overloads_pass(tmp_path):
    lib = "namespace photonsim {\n"
    files = {
        "lib/a.cpp": lib + "namespace {\nint fits(int n) { return n; }\n}\nint width(int n) { return fits(n); }\n"
                     "static int kept(int n) { return n; }\n}\n",
        "lib/b.cpp": lib + "namespace {\nint fits(long n) { return 2 * static_cast<int>(n); }\n}\n"
                     "double width(double x) { return x; }\nstatic int kept(long n) { return 1; }\n}\n",
        "lib/c.cpp": lib + "namespace {\nint fits(int n) { return n; }\n}\n}\n",
    }
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    listing = tmp_path / "targets.txt"
    # c.cpp is another library's: it never shares a translation unit with a.cpp and b.cpp.
    listing.write_text("".join(f"{target} {os.path.relpath(tmp_path / name, ROOT)}\n"
                               for target, name in (("one", "lib/a.cpp"), ("one", "lib/b.cpp"), ("two", "lib/c.cpp"))))
    run = lambda: subprocess.run([sys.executable, SCRIPT, str(tmp_path), "--targets", str(listing)],  # noqa: E731
                                 capture_output=True, text=True, check=False)
    result = run()
    assert result.returncode == 1, result.stdout + result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].startswith("one: 'fits' means 2 things (defined in a.cpp; defined in b.cpp)"), lines
    assert lines[1].startswith("one: 'kept' means 2 things"), lines
    assert "width" not in result.stdout  # declared in a header: one thing in the whole program
    (tmp_path / "lib/b.cpp").write_text(lib + "double width(double x) { return x; }\n}\n")
    result = run()
    assert result.returncode == 0, result.stdout + result.stderr
