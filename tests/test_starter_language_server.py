"""The editor settings ``rulebook init`` writes, in the real YAML language server.

VS Code's YAML extension is yaml-language-server (pinned in tests/site/package.json,
installed by ``npm ci --prefix tests/site``). This test starts it over stdio, as the editor
does, hands it the ``yaml.schemas`` map of the ``.vscode/settings.json`` that ``init`` wrote,
and asks for diagnostics, hover and completion on the three kinds of edition file: a whole
term, a term patch and an edition's ``_vocabulary.yaml``. Each must get exactly its schema:
an overlay that also got the term schema would show the union's errors on a valid file.
"""

from __future__ import annotations

import json
import queue
import subprocess
import threading
import time
from pathlib import Path
from typing import Any, Callable

import pytest
from click.testing import CliRunner

from rulebook_compiler import starter
from rulebook_compiler.cli import main

SERVER = Path(__file__).resolve().parent / "site" / "node_modules" / "yaml-language-server" / "bin" / "yaml-language-server"
TIMEOUT = 60.0

# init --example's demo term (its comments left out, so that line numbers count from its id), with
# one key misspelt: "alias" for "aliases"
TERM = "".join(line for line in starter.TERM_YAML.format(term="draw").splitlines(keepends=True)
               if not line.startswith("#")).replace("aliases:", "alias:", 1)

PATCH = """\
id: draw
patch:
  - chnage: full-hand
    set:
      text: A player may draw a card unless their hand holds eight cards.
"""

OVERLAY = """\
facts:
  add:
    - name: diseased
      type: bool
      meaning: The character is diseased.
  withdraw: [stunned]
"""

OVERLAY_TYPO = OVERLAY.replace("withdraw:", "withdraws:")


class Server:
    """A minimal LSP client: Content-Length framed JSON-RPC over the server's stdin and stdout."""

    def __init__(self, root: Path, settings: dict[str, Any]) -> None:
        self.root = root
        self.yaml = {"schemas": settings["yaml.schemas"], "validate": True, "hover": True,
                     "completion": True, "schemaStore": {"enable": False}}
        self.process = subprocess.Popen(["node", str(SERVER), "--stdio"], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        self.messages: queue.Queue[dict[str, Any]] = queue.Queue()
        self.next_id = 0
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        out = self.process.stdout
        assert out is not None
        while True:
            headers: dict[str, str] = {}
            while (line := out.readline().decode("ascii").strip()):
                name, value = line.split(":", 1)
                headers[name.lower()] = value.strip()
            if not headers:
                return
            self.messages.put(json.loads(out.read(int(headers["content-length"]))))

    def send(self, message: dict[str, Any]) -> None:
        body = json.dumps({"jsonrpc": "2.0", **message}).encode()
        assert self.process.stdin is not None
        self.process.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.process.stdin.flush()

    def notify(self, method: str, params: dict[str, Any]) -> None:
        self.send({"method": method, "params": params})

    def request(self, method: str, params: dict[str, Any]) -> Any:
        self.next_id += 1
        number = self.next_id
        self.send({"id": number, "method": method, "params": params})
        return self.wait(lambda m: m.get("id") == number and "method" not in m)["result"]

    def wait(self, wanted: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
        end = time.monotonic() + TIMEOUT
        while time.monotonic() < end:
            try:
                message = self.messages.get(timeout=0.2)
            except queue.Empty:
                continue
            if "method" in message and "id" in message:
                self._answer(message)
            elif wanted(message):
                return message
        raise AssertionError("yaml-language-server did not answer in time")

    def _answer(self, message: dict[str, Any]) -> None:
        # The server asks the editor for its settings; the "yaml" section is the map init wrote.
        result: Any = None
        if message["method"] == "workspace/configuration":
            result = [self.yaml if item.get("section") == "yaml" else None for item in message["params"]["items"]]
        self.send({"id": message["id"], "result": result})

    def start(self) -> None:
        self.request("initialize", {
            "processId": None, "rootUri": self.root.as_uri(),
            "workspaceFolders": [{"uri": self.root.as_uri(), "name": self.root.name}],
            "capabilities": {"workspace": {"configuration": True},
                             "textDocument": {"hover": {"contentFormat": ["markdown"]}}}})
        self.notify("initialized", {})
        self.notify("workspace/didChangeConfiguration", {"settings": {"yaml": self.yaml}})

    def open(self, relative: str, text: str) -> tuple[str, list[dict[str, Any]]]:
        uri = (self.root / relative).as_uri()
        self.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "yaml", "version": 1, "text": text}})
        published = self.wait(lambda m: m.get("method") == "textDocument/publishDiagnostics" and m["params"]["uri"] == uri)
        return uri, published["params"]["diagnostics"]

    def hover(self, uri: str, line: int, character: int) -> str:
        return self.request("textDocument/hover", {"textDocument": {"uri": uri},
                                                   "position": {"line": line, "character": character}})["contents"]["value"]

    def completion(self, uri: str, line: int, character: int) -> list[str]:
        result = self.request("textDocument/completion", {"textDocument": {"uri": uri},
                                                          "position": {"line": line, "character": character}})
        return sorted(item["label"] for item in result["items"])

    def close(self) -> None:
        self.process.kill()
        self.process.wait()


@pytest.fixture(scope="module")
def server(tmp_path_factory) -> Any:
    assert SERVER.is_file(), "yaml-language-server is missing: npm ci --prefix tests/site (tools/test.sh runs it)"
    folder = tmp_path_factory.mktemp("editor")
    original = starter.compiler_source
    starter.compiler_source = lambda: None  # type: ignore[assignment]
    try:
        result = CliRunner().invoke(main, ["init", str(folder / "mygame")], prog_name="rulebook")
    finally:
        starter.compiler_source = original  # type: ignore[assignment]
    assert result.exit_code == 0, result.output
    root = folder / "mygame"
    running = Server(root, json.loads((root / ".vscode" / "settings.json").read_text()))
    running.start()
    yield running
    running.close()


def schema_uri(server: Server, name: str) -> str:
    return (server.root / ".schemas" / name).as_uri()


def summary(diagnostics: list[dict[str, Any]]) -> list[tuple[int, int, int, str, list[str]]]:
    return [(d["range"]["start"]["line"], d["range"]["start"]["character"], d["range"]["end"]["character"],
             d["message"], d["data"]["schemaUri"]) for d in diagnostics]


def test_a_term_file_gets_the_term_schema_diagnostics_hover_and_completion(server):
    uri, diagnostics = server.open("rulebook/editions/1.0/draw.yaml", TERM)
    # One misspelled key, one problem, at the key (line 3 of the file, 0-based 2).
    assert summary(diagnostics) == [(2, 0, 5, "Property alias is not allowed.", [schema_uri(server, "rulebook.json")])]
    shown = server.hover(uri, 1, 1)
    assert shown.startswith("#### rulebook-compiler source files\n\nThe term's name as printed, like \"Heal\".\n")
    assert shown.endswith(f"Source: [rulebook.json]({schema_uri(server, 'rulebook.json')})")
    top = server.completion(uri, 2, 0)
    assert {"aliases", "editor_notes", "notes", "released", "updated", "withdrawn"} <= set(top)


def test_a_patch_gets_the_patch_operations(server):
    uri, diagnostics = server.open("rulebook/editions/2.0/draw.yaml", PATCH)
    messages = [message for _, _, _, message, _ in summary(diagnostics)]
    assert "Property chnage is not allowed." in messages
    assert {line for line, *_ in summary(diagnostics)} == {2}
    shown = server.hover(uri, 1, 1)
    assert shown.startswith("#### rulebook-compiler source files\n\nThe operations, applied in order.\n")
    assert shown.endswith(f"Source: [rulebook.json]({schema_uri(server, 'rulebook.json')})")
    operation = server.completion(uri, 2, 4)
    assert {"add", "change", "move", "remove", "replace"} <= set(operation)


def test_an_overlay_gets_only_the_overlay_schema(server):
    uri, diagnostics = server.open("rulebook/editions/2.0/_vocabulary.yaml", OVERLAY)
    # A valid overlay: no problem. With the term schema too, every key would be an error.
    assert diagnostics == []
    shown = server.hover(uri, 0, 1)
    assert shown.startswith("Facts this edition adds, changes or withdraws.\n")
    assert shown.endswith(f"Source: [vocabulary-overlay.schema.json]({schema_uri(server, 'vocabulary-overlay.schema.json')})")
    assert server.completion(uri, 0, 0) == sorted(["constraints", "facts"])
    typo_uri, typo = server.open("rulebook/editions/3.0/_vocabulary.yaml", OVERLAY_TYPO)
    assert summary(typo) == [(5, 2, 11, "Property withdraws is not allowed.",
                              [schema_uri(server, "vocabulary-overlay.schema.json")])]
