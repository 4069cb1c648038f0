"""Brand and other drug names -> generic names, from the optional `drug-named-entity-recognition` package.

Patients and notes write "Eliquis", "Lasix", "Advil"; the class layer (`everyday.tsv`) lists generic
names. The package (MIT code; its name data are drawn from sources with their own terms, so they are
used from the installed package and never copied here) maps about 107,000 names to about 20,000
drugs. Its list has noisy entries, so only names of at least 5 letters (letters and hyphens) that map
to one drug whose name is not itself a plural class ("... agents"; "tacrolimus" is a drug) are kept,
minus a few clinical words it lists as brands. A generic name is written as notes write it: without the
four-letter suffix that tells biologics apart ("risankizumab-rzaa" -> risankizumab), a qualifier in brackets
("propranolol (cardiovascular)", "insulin glargine (rdna origin)"), a trailing grade number ("polyethylene glycol
3350"), dosage form ("goserelin implant", "nicotine gum") or salt ("lisdexamfetamine dimesylate", "clorazepate
dipotassium": a note writes the drug, seldom its salt), and "thyroxine" as levothyroxine.
`generic_of` is the one lookup every match of a drug's name goes through (the question's words, a note sentence's,
the note's list of drugs): a brand or variant name, case-insensitive, or its plural ("valiums"), to its generic.
Loading the package takes seconds, so the filtered map is cached as JSON under the user cache directory
(`$XDG_CACHE_HOME/archehr`, else `~/.cache/archehr`), keyed by the package version and `FILTER_VERSION`.
Without the package `drug_names()` holds only the team's brand layer (`brands.tsv`: combination and UK brands
the package lacks, "Sinemet" -> levodopa, "co-amoxiclav" -> amoxicillin-clavulanate), and `available()` says why
(the `umls` extra installs it). The layer is read on top of the package's names, never cached with them.
"""

from __future__ import annotations

import functools
import json
import os
import re
from pathlib import Path

PACKAGE = "drug-named-entity-recognition"
FIX = "pip install 'archehr[umls]' (drug-named-entity-recognition)"
_NAME = re.compile(r"^[a-z][a-z-]{4,}$")
# a drug name ending so is one drug (sirolimus, tafamidis), not a plural class (analgesics, "stool softeners")
_SINGULAR_S = ("us", "is", "os", "ss", "as")
# the FDA's four-letter suffix of a biologic ("-rzaa"), after a name of at least 6 letters
_BIOLOGIC_SUFFIX = re.compile(r"^([a-z]{6,}(?: [a-z]{4,})*)-[a-z]{4}$")
_TRAILING = re.compile(r" (?:\d+|implant|injection|tablets?|capsules?|oral|topical|subcutaneous|patch|gum|lozenges?|"
                       r"combination)$")
_QUALIFIER = re.compile(r" \([^()]*\)")  # "propranolol (cardiovascular)", "insulin detemir (rdna origin)"
# a salt a generic is sold as, after a one-word drug name of at least 6 letters that is no ion itself ("sildenafil
# citrate", "enoxaparin sodium"; not "calcium carbonate", "dimethyl fumarate": fumarate is not among them)
_SALT = re.compile(r"^([a-z]{6,}) (?:hydrochloride|hcl|sodium|potassium|dipotassium|disodium|succinate|tartrate|"
                   r"bitartrate|mesylate|dimesylate|maleate|besylate|hyclate|monohydrate|pamoate|tosylate|citrate|"
                   r"acetate|sulfate|sulphate)$")
_IONS = frozenset({"sodium", "potassium", "calcium", "magnesium", "lithium", "ferric", "ferrous", "barium", "zinc",
                   "aluminum", "aluminium", "ammonium", "cupric"})
# names a qualifier or salt would leave as an everyday word ("thyroid (usp)", "contraceptive patch"): kept whole
_KEPT_WHOLE = frozenset({"thyroid", "contraceptive", "cholesterol", "dermatan", "keratan", "karaya"})
# generic names the package spells otherwise than notes do
SAME_AS = {"thyroxine": "levothyroxine", "valsartan and sacubitril": "sacubitril-valsartan",
           "trimethoprim/sulfamethoxazole": "trimethoprim-sulfamethoxazole"}
# bumped when the filter changes: the cache file is keyed by it and the package version
FILTER_VERSION = 3
BRANDS_PATH = Path(__file__).resolve().parent / "brands.tsv"
# clinical words the package lists as brand or variant names
NOT_BRANDS = frozenset({"luminal", "cortisol", "sulfate", "citrate", "bicarbonate", "ferritin", "guaiac",
                        "hydrogel", "sunscreen", "sedatives", "statin", "statins", "opioid", "opioids", "nsaid",
                        "nsaids", "antibiotic", "antibiotics", "folate", "insulin", "heparin", "oxygen",
                        "glucose", "potassium", "sodium", "calcium", "magnesium", "saline", "contrast", "armour"})


def package_version() -> str | None:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(PACKAGE)
    except PackageNotFoundError:
        return None


def available() -> tuple[bool, str]:
    """(whether brand names resolve, a sentence saying so)."""
    v = package_version()
    if v is None:
        return False, f"brand drug names are not resolved: {PACKAGE} is not installed ({FIX})"
    return True, f"{PACKAGE} {v}"


def _cache_file(v: str) -> Path:
    root = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "archehr"
    return root / f"drug-names-{v}-f{FILTER_VERSION}.json"


def as_notes_write(generic: str) -> str:
    """A generic name as clinical notes write it ("risankizumab-rzaa" -> "risankizumab")."""
    g = _QUALIFIER.sub("", SAME_AS.get(generic, generic))
    m = _BIOLOGIC_SUFFIX.match(g)
    g = m.group(1) if m else g
    g = _TRAILING.sub("", g)
    m = _SALT.match(g)
    g = m.group(1) if m and m.group(1) not in _IONS else g
    return generic if g in _KEPT_WHOLE else g


def _build() -> dict[str, str]:
    from drug_named_entity_recognition import drugs_finder  # seconds: it unpickles its whole dictionary

    out: dict[str, str] = {}
    for variant, canon in drugs_finder.drug_variant_to_canonical.items():
        v = variant.lower()
        if len(canon) != 1 or not _NAME.match(v) or v in NOT_BRANDS:
            continue
        c = canon[0].lower()
        if c == v or (c.endswith("s") and not c.endswith(_SINGULAR_S)) or "," in c or len(c) > 40:
            continue
        c = as_notes_write(c)
        if c != v:
            out[v] = c
    return out


def brand_layer() -> dict[str, str]:
    """The team's brand layer (`brands.tsv`): name -> generic name, lower-case; "#" lines and the header skipped."""
    out: dict[str, str] = {}
    for line in BRANDS_PATH.read_text(encoding="utf-8").splitlines():
        parts = line.split("\t")
        if len(parts) == 2 and not line.startswith("#") and parts[0] != "name":
            out[parts[0].strip().lower()] = parts[1].strip().lower()
    return out


@functools.lru_cache(maxsize=1)
def drug_names() -> dict[str, str]:
    """Filtered name -> generic name ("eliquis" -> "apixaban"), the brand layer on top; the layer alone when the
    package is missing."""
    return {**_package_names(), **brand_layer()}


def _package_names() -> dict[str, str]:
    v = package_version()
    if v is None:
        return {}
    cache = _cache_file(v)
    try:
        return dict(json.loads(cache.read_text(encoding="utf-8")))
    except (OSError, ValueError):
        pass
    names = _build()
    try:
        cache.parent.mkdir(parents=True, exist_ok=True)
        tmp = cache.with_suffix(".tmp")
        tmp.write_text(json.dumps(names, sort_keys=True), encoding="utf-8")
        tmp.replace(cache)
    except OSError:
        pass  # a read-only home: rebuilt next time, slower but the same
    return names


# a word that may be a drug's name: letters and hyphens ("co-codamol"), at least 5 (`drug_names` keeps no shorter)
WORD = re.compile(r"[A-Za-z][A-Za-z-]{4,}")


def generic_of(word: str) -> str | None:
    """The generic name (as notes write it) of a brand or variant drug name, case-insensitive ("Xanax" ->
    alprazolam, "Suboxone" -> buprenorphine), or of its plural ("valiums"); None for any other word (a generic
    name itself too: it is its own). The one lookup of every match of a drug's name."""
    names = drug_names()
    w = word.lower()
    g = names.get(w)
    if g is None and len(w) > 5 and w.endswith("s"):
        g = names.get(w[:-1])
    return g


def drugs_in(text: str) -> list[str]:
    """The generic names of every drug `text` names, by its generic name or any other (`generic_of`), a hyphenated
    combination ("carbidopa-levodopa") by each of its parts too; in order, each once."""
    generics = generic_names()
    found: dict[str, None] = {}
    for m in re.finditer(r"[A-Za-z][A-Za-z-]{3,}", text):
        lw = m.group(0).lower()
        for part in (lw, *(lw.split("-") if "-" in lw else ())):
            g = part if part in generics else generic_of(part)
            if g is not None:
                found.setdefault(g, None)
    return list(found)


@functools.lru_cache(maxsize=1)
def generic_names() -> frozenset[str]:
    return frozenset(drug_names().values())


def generics_in(text: str) -> list[str]:
    """The generic names of the brand (or variant) drug names in `text`, in order, each once."""
    found: dict[str, None] = {}
    for m in WORD.finditer(text):
        g = generic_of(m.group(0))
        if g is not None:
            found.setdefault(g, None)
    return list(found)
