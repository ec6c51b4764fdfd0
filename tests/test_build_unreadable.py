"""``rulebook check`` on a rulebook folder or file the user may not read: one error line per
place, every such place at once, exit status 1; never a traceback."""

from __future__ import annotations

from click.testing import CliRunner

from rulebook_compiler.cli import main


def _check(as_another_user, *args: str):
    runner = CliRunner()
    assert runner.invoke(main, ["check", "book", *args]).exit_code == 0  # imports done while readable
    with as_another_user():
        return runner.invoke(main, ["check", "book", *args], catch_exceptions=False)


def test_edition_folders_that_cannot_be_listed_are_each_named(unreadable_book):
    own, as_another_user = unreadable_book
    (own / "book" / "editions" / "v1").chmod(0o300)
    (own / "book" / "editions" / "v2").chmod(0o300)
    result = _check(as_another_user)
    assert (result.exit_code, result.stdout, result.stderr) == (1, "", (
        "book/editions/v1: error: cannot read folder: Permission denied\n"
        "book/editions/v2: error: cannot read folder: Permission denied\n"
        "2 problems found\n"))


def test_an_edition_folder_listed_but_not_searchable_is_named_once(unreadable_book):
    own, as_another_user = unreadable_book
    (own / "book" / "editions" / "v1").chmod(0o644)
    result = _check(as_another_user)
    assert (result.exit_code, result.stdout, result.stderr) == (1, "", (
        "book/editions/v1: error: cannot read folder: Permission denied\n"
        "1 problem found\n"))


def test_an_editions_folder_that_cannot_be_listed_is_named(unreadable_book):
    own, as_another_user = unreadable_book
    (own / "book" / "editions").chmod(0o300)
    result = _check(as_another_user)
    assert (result.exit_code, result.stdout, result.stderr) == (1, "", (
        "book/editions: error: cannot read folder: Permission denied\n"
        "1 problem found\n"))


def test_a_rulebook_folder_that_cannot_be_searched_is_named(unreadable_book):
    own, as_another_user = unreadable_book
    (own / "book").chmod(0o600)
    result = _check(as_another_user)
    assert (result.exit_code, result.stdout, result.stderr) == (1, "", (
        "book: error: cannot read folder: Permission denied\n"
        "1 problem found\n"))


def test_a_rulebook_folder_inside_one_that_cannot_be_searched_is_named(unreadable_book):
    own, as_another_user = unreadable_book
    (own / "locked").mkdir(mode=0o700)
    runner = CliRunner()
    assert runner.invoke(main, ["check", "book"]).exit_code == 0
    (own / "book").rename(own / "locked" / "book")
    with as_another_user():
        result = runner.invoke(main, ["check", "locked/book"], catch_exceptions=False)
    assert (result.exit_code, result.stdout, result.stderr) == (1, "", (
        "locked/book: error: cannot read folder: Permission denied\n"
        "1 problem found\n"))


def test_unreadable_files_are_each_named(unreadable_book):
    own, as_another_user = unreadable_book
    (own / "book" / "vocabulary.yaml").chmod(0o200)
    (own / "book" / "editions" / "v2" / "cure.yaml").chmod(0o200)
    result = _check(as_another_user)
    assert (result.exit_code, result.stdout, result.stderr) == (1, "", (
        "book/editions/v2/cure.yaml: error: cannot read file: Permission denied\n"
        "book/vocabulary.yaml: error: cannot read file: Permission denied\n"
        "2 problems found\n"))


def test_a_source_file_in_a_folder_that_cannot_be_searched_is_named_where_it_is_declared(unreadable_book):
    own, as_another_user = unreadable_book
    book = own / "book"
    (book / "sources").mkdir()
    (book / "sources" / "v1.txt").write_text("The first edition's text.\n")
    text = (book / "rulebook.yaml").read_text()
    (book / "rulebook.yaml").write_text(text.replace('status: published\n',
                                                     'status: published\n    sources: [sources/v1.txt]\n'))
    (book / "sources").chmod(0o600)
    # without the cache: a whole check it holds does not look for the source files again
    result = _check(as_another_user, "--no-cache")
    assert (result.exit_code, result.stdout, result.stderr) == (1, "", (
        "book/rulebook.yaml:8:15: error: cannot read source file 'sources/v1.txt': Permission denied\n"
        "1 problem found\n"))


def test_a_link_into_a_folder_that_cannot_be_searched_is_named(unreadable_book):
    own, as_another_user = unreadable_book
    book = own / "book"
    (book / "locked").mkdir()
    (book / "editions" / "v2" / "cure.yaml").rename(book / "locked" / "cure.yaml")
    (book / "editions" / "v2" / "cure.yaml").symlink_to("../../locked/cure.yaml")
    (book / "locked").chmod(0o700)
    result = _check(as_another_user)
    assert (result.exit_code, result.stdout, result.stderr) == (1, "", (
        "book/editions/v2/cure.yaml: error: cannot read: Permission denied\n"
        "1 problem found\n"))
