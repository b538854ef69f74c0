"""The .pyi stubs describe exactly what the package exports, with a docstring for each."""

import ast
import inspect
from pathlib import Path

import gobo

PKG = Path(gobo.__file__).parent


def stub_names(module):
    tree = ast.parse((PKG / f"{module}.pyi").read_text())
    names = {}
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names[node.name] = ast.get_docstring(node)
    return names, ast.get_docstring(tree)


def test_every_export_has_a_documented_stub_and_back():
    for name in ("scratch", "xlogo", "draw"):
        module = getattr(gobo, name)
        stubs, doc = stub_names(name)
        assert doc, f"{name}.pyi has no module docstring"
        assert set(stubs) == set(module.__all__), (name, set(stubs) ^ set(module.__all__))
        for export, docstring in stubs.items():
            assert docstring, f"{name}.{export} has no docstring in the stub"
            assert inspect.getdoc(getattr(module, export)), f"{name}.{export} has no runtime docstring"
    assert (PKG / "py.typed").exists()


def test_signatures_match_the_stubs():
    for name in ("scratch", "xlogo", "draw"):
        module = getattr(gobo, name)
        tree = ast.parse((PKG / f"{name}.pyi").read_text())
        for node in tree.body:
            if not isinstance(node, ast.FunctionDef):
                continue
            runtime = inspect.signature(getattr(module, node.name))
            stub = [a.arg for a in node.args.posonlyargs + node.args.args + node.args.kwonlyargs]
            assert list(runtime.parameters) == stub, (name, node.name, list(runtime.parameters), stub)
