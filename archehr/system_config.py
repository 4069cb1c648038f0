"""A system config (`configs/systems/*.yaml`): read, checked against the components it names, resolved.

Every component section has one form, `{kind: NAME, ...its options}`:

    name: trained-extractive
    selector: {kind: default, model: interactions}  # default | all | classifier | llm  (relevance/evidence.py)
    generator: {kind: extractive}               # extractive | plain | llm          (generate/registry.py)
    backend: {kind: openai, base_url: ..., cache: true}   # for the parts that take a backend (llm/registry.py)
    question: {kind: template}                  # st1: template | llm               (question/__init__.py)
    align: {kind: learned}                      # st4: similarity | learned | llm   (align/__init__.py)
    seed: 0

A section's options are what its component declares (its keyword parameters, `Registry.options`);
an unknown kind or option is a `ConfigError` naming the YAML line, with "did you mean". The old
forms (`name:` or `method:` for the kind, options under `params:`) still load, each with one warning
saying what to write instead (`SystemConfig.warnings`). An option that is itself a part (the `llm`
aligner's `fallback`, a `classifier` selector's `classifier` and `selector` settings, an ensemble's
`members`: declared with the component, `archehr.registry.Nested`) is checked the same way inside.
`SystemConfig.resolved` is the config with every default filled in, nested parts included: what run.json
records, and what `sha256` hashes.
"""

from __future__ import annotations

import dataclasses
import hashlib
import inspect
import json
import re
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from archehr.configs import configs_dir
from archehr.errors import ConfigError, DataError, Problem
from archehr.registry import Nested, Registry, did_you_mean, resolve

DEFAULT_SYSTEM = "trained-extractive"
MAX_CONFIG_DEPTH = 16
# A system name becomes a folder name (`runs/<name>-<split>-<task>`): no separator, no leading dot, no "..".
_SAFE_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._+-]{0,99}")



@dataclass(frozen=True)
class Section:
    """A kind of component, as a config section: the registry of its components and the kind used when the
    section is absent (None: the section is optional)."""

    registry: str  # "module:attr" of a Registry
    default: str | None


# Every component section a system config may have (a new kind of component: one `add` here, or from a plugin's
# module, as tests/test_component_registry.py does).
COMPONENTS: Registry[Section] = Registry("config section")
COMPONENTS.add("selector", Section("archehr.relevance.registry:EVIDENCE", "default"))
COMPONENTS.add("generator", Section("archehr.generate.registry:GENERATORS", "extractive"))
COMPONENTS.add("backend", Section("archehr.llm.registry:BACKENDS", None))
COMPONENTS.add("question", Section("archehr.question:QUESTION_WRITERS", "template"))
COMPONENTS.add("align", Section("archehr.align:ALIGNERS", "similarity"))
# options a section takes besides its component's own: the backend's response cache (pipeline.System)
_SECTION_EXTRAS = {"backend": {"cache": True}}
# what the system gives a component that declares it, rather than the config
INJECTED = ("backend",)
_PLAIN_KEYS = ("name", "description", "seed")


def registry(section: str) -> Registry[Any]:
    return resolve(COMPONENTS.get(section).registry)  # type: ignore[no-any-return]


@dataclass(frozen=True)
class SystemConfig:
    name: str
    source: str
    # every section of COMPONENTS as {kind: NAME, ...options given}; None: an optional section left out
    sections: dict[str, dict[str, Any] | None]
    seed: int = 0
    description: str = ""
    raw: dict[str, Any] = field(default_factory=dict)  # as written
    warnings: tuple[Problem, ...] = ()  # old forms that still load, each saying what to write instead

    def with_section(self, name: str, spec: dict[str, Any] | None) -> SystemConfig:
        """This config with section `name` replaced by `spec` ({kind: NAME, ...options})."""
        return replace(self, sections={**self.sections, name: spec})

    def spec(self, name: str) -> dict[str, Any] | None:
        """Section `name` as the system builds it: as loaded, or {kind: its default} when left out (the
        default is the one COMPONENTS declares; None for an optional section such as `backend`)."""
        spec = self.sections.get(name)
        if spec is None and (default := COMPONENTS.get(name).default) is not None:
            return {"kind": default}
        return spec

    # each section as built (`spec`), by name; `backend` is None when the system has none
    selector = property(lambda self: self.spec("selector"))
    generator = property(lambda self: self.spec("generator"))
    backend = property(lambda self: self.spec("backend"))
    question = property(lambda self: self.spec("question"))
    align = property(lambda self: self.spec("align"))

    @property
    def resolved(self) -> dict[str, Any]:
        """The config as the system runs it: every section's kind and every option, defaults filled in."""
        out: dict[str, Any] = {"name": self.name, "description": self.description, "seed": self.seed}
        for sec, spec in self.sections.items():
            if spec is not None:
                out[sec] = resolved_section(sec, spec, self.seed)
        return out

    @property
    def sha256(self) -> str:
        return hashlib.sha256(json.dumps(self.resolved, sort_keys=True, default=str).encode()).hexdigest()


def resolved_section(section: str, spec: dict[str, Any], seed: int) -> dict[str, Any]:
    return resolved_component(registry(section), spec, seed, _SECTION_EXTRAS.get(section))


def resolved_component(reg: Registry[Any], spec: dict[str, Any], seed: int | None,
                       extras: dict[str, Any] | None = None) -> dict[str, Any]:
    """`spec` ({kind: NAME, ...options given}) with every option the component declares, defaults filled in, and
    its nested parts resolved alike. `seed`: the system's, given to a section's component that takes one (a
    nested part keeps its own default: the system does not pass it the seed)."""
    kind = spec["kind"]
    out: dict[str, Any] = {"kind": kind}
    nested = reg.nested(kind)
    for opt, default in reg.options(kind).items():
        if opt in INJECTED or opt == "**":
            continue
        if opt in spec:
            value = spec[opt]
        elif opt in nested and nested[opt].absent is not None:
            value = nested[opt].absent  # what the component uses when the option is not given
        elif opt == "seed" and seed is not None:
            value = seed  # the system's seed reaches every component that takes one
        elif default is not inspect.Parameter.empty:
            value = list(default) if isinstance(default, tuple) else default
        else:
            continue
        out[opt] = _resolved_nested(nested[opt], value) if opt in nested else value
    for opt, default in (extras or {}).items():
        out[opt] = spec.get(opt, default)
    out.update({k: v for k, v in spec.items() if k not in out})  # a **options component's extras
    return out


def _as_spec(value: Any) -> dict[str, Any] | None:
    """A nested component as `{kind: NAME, ...options}` (from `NAME`, or `name:` for the kind); None if neither."""
    if isinstance(value, str):
        return {"kind": value}
    if isinstance(value, dict):
        key = "kind" if "kind" in value else "name"
        if isinstance(value.get(key), str):
            return {"kind": value[key], **{k: v for k, v in value.items() if k != key}}
    return None


def _resolved_nested(n: Nested, value: Any) -> Any:
    if value is None:
        return None
    if n.settings is not None:
        if not isinstance(value, dict):
            return value
        fields = [f for f in dataclasses.fields(resolve(n.settings)) if f.default is not dataclasses.MISSING]
        return {**{f.name: f.default for f in fields}, **value}
    reg: Registry[Any] = resolve(n.registry)

    def one(v: Any) -> Any:
        spec = _as_spec(v)
        return resolved_component(reg, spec, None) if spec is not None and spec["kind"] in reg else v

    if n.many:
        return [one(v) for v in value] if isinstance(value, (list, tuple)) else value
    return one(value)


def safe_name(text: str) -> str:
    """`text` as one plain folder-name component (the default run folder is built from names)."""
    return re.sub(r"[^A-Za-z0-9._+-]+", "-", text).lstrip("._+-")[:100] or "unnamed"


def builtin_systems() -> list[str]:
    return sorted(p.stem for p in (configs_dir() / "systems").glob("*.yaml"))


def find_system_file(name_or_path: str) -> Path:
    p = Path(name_or_path)
    if p.suffix in (".yaml", ".yml") or p.is_file():
        if not p.is_file():
            raise ConfigError(Problem("system config file not found", str(p), code="missing-file"))
        return p
    builtin = configs_dir() / "systems" / f"{name_or_path}.yaml"
    if builtin.is_file():
        return builtin
    import difflib

    names = builtin_systems()
    close = difflib.get_close_matches(name_or_path, names, n=3, cutoff=0.5)
    hint = f"; did you mean {' or '.join(close)}?" if close else ""
    raise ConfigError(f"unknown system {name_or_path!r}{hint} (built-in: {', '.join(names)}; or give a YAML path)")


# --- YAML line numbers -------------------------------------------------------------------------------------------


def key_lines(text: str) -> dict[tuple[str, ...], int]:
    """(key path) -> 1-based line of every mapping key of a YAML document (empty when it does not compose)."""
    import yaml

    try:
        node = yaml.compose(text, Loader=yaml.SafeLoader)
    except (yaml.YAMLError, RecursionError):
        return {}
    out: dict[tuple[str, ...], int] = {}

    def walk(n: Any, path: tuple[str, ...], depth: int) -> None:
        if depth > MAX_CONFIG_DEPTH or not isinstance(n, yaml.MappingNode):
            return
        for k, v in n.value:
            key = (*path, str(k.value))
            out.setdefault(key, k.start_mark.line + 1)
            walk(v, key, depth + 1)

    walk(node, (), 0)
    return out


class _Checker:
    """Collects the problems and warnings of one config, each with its YAML line when known."""

    def __init__(self, source: str, lines: dict[tuple[str, ...], int]):
        self.source, self.lines = source, lines
        self.problems: list[Problem] = []
        self.warnings: list[Problem] = []

    def line(self, *path: str) -> int | None:
        while path:
            if path in self.lines:
                return self.lines[path]
            path = path[:-1]
        return None

    def error(self, message: str, *path: str, code: str = "bad-key") -> None:
        self.problems.append(Problem(message, self.source, field=".".join(path) or None, line=self.line(*path),
                                     code=code))

    def warn(self, message: str, *path: str) -> None:
        self.warnings.append(Problem(message, self.source, field=".".join(path) or None, line=self.line(*path),
                                     code="warning-old-form"))


def _component(chk: _Checker, section: str, value: Any, path: tuple[str, ...], reg: Registry[Any],
               extras: dict[str, Any] | None = None) -> dict[str, Any] | None:
    """A component section in the one form `{kind: NAME, ...options}` (old forms rewritten, with a warning)."""
    where = ".".join(path)
    if isinstance(value, str):
        chk.warn(f"write `{where}: {{kind: {value}}}`", *path)
        value = {"kind": value}
    if not isinstance(value, dict):
        chk.error(f"must be a mapping `{{kind: NAME, ...options}}`, not {value!r}", *path, code="bad-value")
        return None
    spec = dict(value)
    for old in ("name", "method"):
        if old in spec and "kind" not in spec:
            chk.warn(f"`{old}:` is the old key; write `kind: {spec[old]}`", *path, old)
            spec["kind"] = spec.pop(old)
    params = spec.pop("params", None)
    if params is not None:
        if not isinstance(params, dict):
            chk.error("must be a mapping", *path, "params", code="bad-value")
            return None
        nested = section == "selector" and spec.get("kind") == "classifier"
        target = "classifier" if nested else where
        chk.warn(f"`params:` is the old form; write its options inside `{target}` ({', '.join(params) or 'none'})",
                 *path, "params")
        if nested:  # the classifier's own options: {classifier: NAME, params: {...}} -> classifier: {kind: NAME, ...}
            clf = spec.get("classifier")
            spec["classifier"] = {"kind": clf, **params} if isinstance(clf, str) else clf
        else:
            for k, v in params.items():
                if k in spec and spec[k] != v:
                    chk.error(f"{k} is given both inline and under params", *path, "params", k)
                spec[k] = v
    kind = spec.get("kind")
    names = reg.names()
    if kind is None:
        chk.error(f"needs a kind ({', '.join(names)})", *path, code="bad-value")
        return None
    if not isinstance(kind, str) or kind not in reg:
        chk.error(f"unknown {reg.kind} {kind!r}{did_you_mean(str(kind), names)} (kinds: {', '.join(names)})",
                  *path, "kind", code="bad-value")
        return None
    declared = [o for o in reg.options(kind) if o not in INJECTED]
    if "**" not in declared:
        known = [o for o in declared if o != "**"] + list(extras or {})
        for k in spec:
            if k != "kind" and k not in known:
                chk.error(f"{reg.kind} {kind!r} has no option {k!r}{did_you_mean(k, known)} "
                          f"(its options: {', '.join(known) or 'none'})", *path, k)
    for opt, n in reg.nested(kind).items():
        if spec.get(opt) is not None:
            spec[opt] = _nested(chk, n, spec[opt], (*path, opt))
    return spec


def _nested(chk: _Checker, n: Nested, value: Any, path: tuple[str, ...]) -> Any:
    """A nested part checked like a section (a component's kind and options, or a settings dataclass's fields)."""
    where = ".".join(path)
    if n.settings is not None:
        cls = resolve(n.settings)
        known = [f.name for f in dataclasses.fields(cls)]
        if not isinstance(value, dict):
            chk.error(f"must be a mapping of {cls.__name__} settings ({', '.join(known)}), not {value!r}", *path,
                      code="bad-value")
            return value
        for k in value:
            if k not in known:
                chk.error(f"{where} has no setting {k!r}{did_you_mean(str(k), known)} (its settings: "
                          f"{', '.join(known)})", *path, str(k))
        return value
    reg: Registry[Any] = resolve(n.registry)

    def one(v: Any, p: tuple[str, ...]) -> Any:
        if isinstance(v, str):  # a bare name is a component with its defaults
            if v not in reg:
                chk.error(f"unknown {reg.kind} {v!r}{did_you_mean(v, reg.names())} (kinds: {', '.join(reg.names())})",
                          *p, code="bad-value")
            return v
        got = _component(chk, reg.kind, v, p, reg)
        return v if got is None else got

    if n.many:
        if not isinstance(value, (list, tuple)):
            chk.error(f"must be a list of {reg.kind}s", *path, code="bad-value")
            return value
        return [one(v, (*path, str(i))) for i, v in enumerate(value)]
    return one(value, path)


def parse_system(raw: Any, source: str, text: str | None = None) -> SystemConfig:
    """A parsed YAML mapping as a checked SystemConfig (`text`, the file's text, gives messages line numbers)."""
    chk = _Checker(source, key_lines(text) if text else {})
    if not isinstance(raw, dict):
        raise ConfigError(Problem("a system config is a YAML mapping", source))
    top = sorted({*_PLAIN_KEYS, *COMPONENTS})
    for k in raw:
        if k not in top:
            chk.error(f"unknown key {k!r}{did_you_mean(str(k), top)} (known: {', '.join(top)})", str(k))
    sections: dict[str, dict[str, Any] | None] = {}
    for sec in COMPONENTS:
        value, default = raw.get(sec), COMPONENTS.get(sec).default
        if value is None:
            sections[sec] = None if default is None else {"kind": default}
            continue
        sections[sec] = _component(chk, sec, value, (sec,), registry(sec), _SECTION_EXTRAS.get(sec))
    name = raw.get("name") or safe_name(Path(source).stem)
    if not isinstance(name, str) or not _SAFE_NAME.fullmatch(name):
        chk.error(f"name {name!r} is not a plain name (letters, digits, '.', '_', '+', '-'; no "
                  "path): it names the default output folder", "name", code="bad-value")
    seed = raw.get("seed", 0)
    if isinstance(seed, bool) or not isinstance(seed, int):
        chk.error(f"seed must be an integer, got {seed!r}", "seed", code="bad-value")
    if chk.problems:
        raise ConfigError(chk.problems)
    return SystemConfig(name=name, source=source, sections=sections, seed=seed,
                        description=str(raw.get("description", "")), raw=raw, warnings=tuple(chk.warnings))


def load_config(name_or_path: str | None = None) -> SystemConfig:
    import yaml

    from archehr.data.json_io import nesting_problem, read_text

    path = find_system_file(name_or_path or DEFAULT_SYSTEM)
    try:
        text = read_text(path)
    except DataError as e:
        raise ConfigError(e.problems) from None
    try:
        raw = yaml.safe_load(text)
    except yaml.YAMLError as e:
        raise ConfigError(yaml_problem(e, str(path))) from None
    except RecursionError:
        raw, why = None, f"nested more than {MAX_CONFIG_DEPTH} levels deep"
    else:
        why = nesting_problem(raw, MAX_CONFIG_DEPTH, max_nodes=10_000) if isinstance(raw, (dict, list)) else None
    if why:
        raise ConfigError(Problem(f"system config {why}", str(path), code="config-size"))
    return parse_system(raw, str(path), text)


def yaml_problem(e: Exception, source: str) -> Problem:
    """A PyYAML error (several lines with a caret drawing) as one line with its line and column."""
    mark = getattr(e, "problem_mark", None) or getattr(e, "context_mark", None)
    problem, context = getattr(e, "problem", None), getattr(e, "context", None)
    what = str(problem or str(e).splitlines()[0])
    where = "; ".join(x for x in (str(context) if context else "", f"column {mark.column + 1}" if mark else "") if x)
    return Problem(f"not valid YAML: {what}" + (f" ({where})" if where else ""), source,
                   line=None if mark is None else mark.line + 1, code="yaml-syntax")
