#!/usr/bin/env bash
# Mutation testing of the core modules, a local profile (see docs/mutation.md).
#   pip install -e '.[test,mutation]'
#   tools/mutation.sh 'rulebook_compiler.conditions.*'      # one module's mutants (dotted name, glob)
#   tools/mutation.sh                              # every core module ([tool.mutmut] only_mutate)
# Prints killed / total per module at the end. Environment: MUTMUT_CHILDREN (default 2,
# parallel test processes), MUTMUT_TIMEOUT (default 3600 s for the whole run), MUTATION_TESTS (the
# tests that judge the mutants, globs read by tests/conftest.py; set, even empty, it overrides the
# module's own selection below).
set -euo pipefail
cd "$(dirname "$0")/.."
# The incremental machinery and the levels are judged by the tests that state their behaviour (the
# selections of docs/mutation.md's figures): the lock is reached by every check, so with the whole
# selection each surviving mutant ran every test that checks a rulebook. tests/test_mutation_profile.py
# holds each glob to files and tests that exist. The other modules run with the whole selection.
selection_of() {
  case "$1" in
    rulebook_compiler.lock.*) echo "tests/test_lock*.py tests/test_review.py tests/test_record.py" \
      "tests/test_overlay.py tests/test_rulebook_files.py" ;;
    rulebook_compiler.cache.*) echo "tests/test_cache*.py tests/test_recheck_state.py" \
      "tests/test_recheck.py::test_a_diff* tests/test_recheck.py::test_rulebooks*" \
      "tests/test_recheck.py::test_a_full_check_* tests/diff/test_cache.py::test_a_*" \
      "tests/diff/test_cache.py::test_an_* tests/diff/test_cache.py::test_no_*" \
      "tests/diff/test_cache.py::test_one_* tests/diff/test_cache.py::test_the_*" ;;
    rulebook_compiler.recheck.*) echo "tests/test_recheck_state.py tests/test_recheck_incremental.py" \
      "tests/test_recheck_record.py tests/test_recheck.py::test_an_edit*" \
      "tests/test_recheck.py::test_the_command* tests/test_recheck.py::test_fixing*" \
      "tests/test_recheck.py::test_a_check_* tests/test_recheck.py::test_a_diff_after*" \
      "tests/test_recheck.py::test_a_full_check_* tests/test_proofs.py" ;;
    rulebook_compiler.diff.level.*) echo "tests/diff/test_level*.py tests/diff/test_levels.py tests/diff/test_gold*.py" ;;
  esac
}
if [ -z "${MUTATION_TESTS+set}" ] && [ "$#" -gt 0 ]; then
  MUTATION_TESTS="$(selection_of "$1")"
  for name in "$@"; do  # one selection for the run: every name must be of the first one's module
    if [ "$(selection_of "$name")" != "$MUTATION_TESTS" ]; then
      echo "tools/mutation.sh: error: '$1' and '$name' are judged by different tests; run them apart" >&2
      echo "  hint: or set MUTATION_TESTS for the run" >&2
      exit 2
    fi
  done
  export MUTATION_TESTS
  [ -n "$MUTATION_TESTS" ] && echo "tools/mutation.sh: the tests of $MUTATION_TESTS" >&2
fi
# Tests that start `python -m rulebook_compiler` must run the mutated copy, with the same mutant
# switched on (mutmut passes it in MUTANT_UNDER_TEST, which a subprocess inherits).
export PYTHONPATH="$PWD/mutants:$PWD/tools/mutation_site"
# The folder must exist before Python starts: a sys.path entry that is not a directory when it is first
# read is cached as "nothing here" for the whole process, so mutmut's own process, which creates
# mutants/, then imported the package from an installed copy (an editable install's, or none: "No module
# named ...") in its stats pass. That was the first run in every fresh work tree failing (2 December 2026).
mkdir -p mutants
# hypothesis draws the same examples every run, so a mutant's verdict is reproducible
export CI=1
# A test's subprocess imports the mutated copy, whose modules hold every mutant (build.py: 2 MB):
# compiled again by every `python -m rulebook_compiler` where bytecode is not written, a subprocess test took
# minutes. Written once into mutants/ (never the sources), they are compiled once.
unset PYTHONDONTWRITEBYTECODE
status=0
timeout "${MUTMUT_TIMEOUT:-3600}" python3 -m mutmut run --max-children "${MUTMUT_CHILDREN:-2}" "$@" || status=$?
python3 -m mutmut results --all true | python3 "$(dirname "$0")/mutation_summary.py" "$@"
exit "$status"
