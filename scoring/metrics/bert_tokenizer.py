"""The slow `BertTokenizer` of transformers as bert-score calls it, re-implemented id for id (no transformers).

Read from the same files (vocab.txt, tokenizer_config.json, special_tokens_map.json) with the same steps:
per-character lowercasing outside special tokens, special-token split, BasicTokenizer (control-character
removal, CJK spacing, NFC, whitespace split, lowercase + accent stripping, punctuation split) and greedy
longest-match WordPiece, then `[CLS] ... [SEP]`, truncated like `tokenizer.encode(sent.strip(),
add_special_tokens=True, max_length=..., truncation=True)`. A configuration it does not reproduce raises
`FastPathUnsupported` (the caller falls back to bert-score). The encoder that uses it: `bert_encoder.py`.
"""

from __future__ import annotations

import json
import re
import unicodedata
from pathlib import Path
from typing import Any

TOKENIZER_CLASSES = ("BertTokenizer", "DistilBertTokenizer")
SPECIAL_NAMES = ("unk_token", "sep_token", "pad_token", "cls_token", "mask_token")
SPECIAL_DEFAULTS = {"unk_token": "[UNK]", "sep_token": "[SEP]", "pad_token": "[PAD]", "cls_token": "[CLS]",
                    "mask_token": "[MASK]"}
# tokenizer_config keys that change nothing here (or are checked separately below).
_TOKENIZER_KEYS_OK = {
    "do_lower_case", "do_basic_tokenize", "never_split", "tokenize_chinese_chars", "strip_accents",
    "model_max_length", "tokenizer_class", "name_or_path", "clean_up_tokenization_spaces", "padding_side",
    "truncation_side", "added_tokens_decoder", "additional_special_tokens", "extra_special_tokens",
    "model_input_names", "max_length", "stride", "truncation_strategy", "pad_to_multiple_of",
    "pad_token_type_id", "special_tokens_map_file", "full_tokenizer_file", "tokenizer_file", "auto_map",
    "split_special_tokens", "do_split_on_punc", "use_fast", "init_inputs", "legacy", "processor_class",
    *SPECIAL_NAMES, "bos_token", "eos_token",
}
VERY_LARGE = int(1e20)


class FastPathUnsupported(ValueError):
    """The folder is not one this module reproduces exactly (the caller falls back to bert-score)."""


def read_json_file(path: Path) -> dict[str, Any]:
    return json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}


def _token_content(v: object) -> tuple[str | None, str | None]:
    """(content, problem) of a special token given as a string or a serialised AddedToken."""
    if v is None or isinstance(v, str):
        return v, None
    if isinstance(v, dict) and isinstance(v.get("content"), str):
        if v.get("lstrip") or v.get("rstrip") or v.get("single_word"):
            return None, f"special token {v['content']!r} strips spaces or is single-word"
        return v["content"], None
    return None, f"special token {v!r} is not a string"


# ---------------------------------------------------------------------------------------------------------------
# Tokenizer: the slow BertTokenizer of transformers, as bert-score calls it


def _is_punct(ch: str) -> bool:
    cp = ord(ch)
    if 33 <= cp <= 47 or 58 <= cp <= 64 or 91 <= cp <= 96 or 123 <= cp <= 126:
        return True
    return unicodedata.category(ch).startswith("P")


def _is_cjk(cp: int) -> bool:
    return (0x4E00 <= cp <= 0x9FFF or 0x3400 <= cp <= 0x4DBF or 0x20000 <= cp <= 0x2A6DF or 0x2A700 <= cp <= 0x2B73F
            or 0x2B740 <= cp <= 0x2B81F or 0x2B820 <= cp <= 0x2CEAF or 0xF900 <= cp <= 0xFAFF
            or 0x2F800 <= cp <= 0x2FA1F)


def _strip_accents(text: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFD", text) if unicodedata.category(c) != "Mn")


class BertTokenizerReplica:
    """`BertTokenizer.encode(text.strip(), add_special_tokens=True, max_length=N, truncation=True)` of transformers.

    Same files, same steps, same order as the slow tokenizer (see the module docstring); per-word
    WordPiece results and per-character classes are cached, which makes it ~20x faster than the
    original without changing a single id.
    """

    def __init__(self, folder: Path, model_type: str, max_positions: int):
        tc = read_json_file(folder / "tokenizer_config.json")
        stm = read_json_file(folder / "special_tokens_map.json")
        cls_name = tc.get("tokenizer_class")
        if cls_name is not None and str(cls_name).removesuffix("Fast") not in TOKENIZER_CLASSES:
            raise FastPathUnsupported(f"tokenizer_class {cls_name!r}")
        unknown = sorted(set(tc) - _TOKENIZER_KEYS_OK)
        if unknown:
            raise FastPathUnsupported(f"tokenizer_config keys {unknown}")
        if (folder / "added_tokens.json").is_file():
            raise FastPathUnsupported("added_tokens.json")
        if not (folder / "vocab.txt").is_file():
            raise FastPathUnsupported("no vocab.txt (the slow tokenizer bert-score uses needs it)")
        if tc.get("do_basic_tokenize", True) is not True or tc.get("never_split") or \
                tc.get("do_split_on_punc", True) is not True or tc.get("split_special_tokens"):
            raise FastPathUnsupported("non-default basic tokenization (do_basic_tokenize/never_split/...)")
        if tc.get("truncation_side", "right") != "right":
            raise FastPathUnsupported("left truncation")
        if tc.get("additional_special_tokens") or stm.get("additional_special_tokens") or \
                tc.get("extra_special_tokens"):
            raise FastPathUnsupported("additional special tokens")
        self.do_lower_case = bool(tc.get("do_lower_case", True))
        self.strip_accents = tc.get("strip_accents")
        self.chinese = bool(tc.get("tokenize_chinese_chars", True))
        specials: dict[str, str] = {}
        for name in SPECIAL_NAMES:
            content, problem = _token_content(stm[name] if name in stm else tc.get(name, SPECIAL_DEFAULTS[name]))
            if problem:
                raise FastPathUnsupported(problem)
            if content is not None:
                specials[name] = content
        self.vocab = self._load_vocab(folder / "vocab.txt")
        for name in ("unk_token", "sep_token", "cls_token"):
            if specials.get(name) not in self.vocab:
                raise FastPathUnsupported(f"{name} is not in vocab.txt")
        for tok in specials.values():
            if tok not in self.vocab:
                raise FastPathUnsupported(f"special token {tok!r} is not in vocab.txt (it would be an added token)")
        for entry in (tc.get("added_tokens_decoder") or {}).values():
            content, problem = _token_content(entry)
            not_special = isinstance(entry, dict) and entry.get("special") is False
            if problem or content not in specials.values() or not_special:
                raise FastPathUnsupported(f"added token {content!r}")
        self.specials = specials
        self.special_set = frozenset(specials.values())
        self.unk = specials["unk_token"]
        self.cls_id = self.vocab[specials["cls_token"]]
        self.sep_id = self.vocab[specials["sep_token"]]
        mml = tc.get("model_max_length")
        mml = VERY_LARGE if mml is None or float(mml) >= VERY_LARGE else int(mml)
        self.max_length = min(mml, max_positions)  # bert-score would crash beyond the position table
        self._special_re = re.compile("(" + "|".join(re.escape(s) for s in
                                                    sorted(self.special_set, key=len, reverse=True)) + ")")
        self._words: dict[str, list[int]] = {}
        self._char_map: dict[str, str | None] = {}
        self._punct: dict[str, bool] = {}

    @staticmethod
    def _load_vocab(path: Path) -> dict[str, int]:
        vocab: dict[str, int] = {}
        with open(path, encoding="utf-8") as f:  # same reading as transformers' load_vocab
            for index, token in enumerate(f.readlines()):
                vocab[token.rstrip("\n")] = index
        return vocab

    # -- BasicTokenizer -------------------------------------------------------------------------------------
    def _map_char(self, ch: str) -> str | None:
        """What _clean_text then _tokenize_chinese_chars make of one character (None: removed)."""
        got = self._char_map.get(ch, "")
        if got != "":
            return got
        cp = ord(ch)
        if ch in "\t\n\r ":
            out: str | None = " "
        elif cp == 0 or cp == 0xFFFD or unicodedata.category(ch).startswith("C"):
            out = None
        elif unicodedata.category(ch) == "Zs":
            out = " "
        elif self.chinese and _is_cjk(cp):
            out = f" {ch} "
        else:
            out = ch
        self._char_map[ch] = out
        return out

    def _split_punct(self, token: str) -> list[str]:
        if token.isalnum():  # letters and digits are never punctuation (fast path)
            return [token]
        out: list[str] = []
        start_new = True
        for ch in token:
            p = self._punct.get(ch)
            if p is None:
                p = self._punct[ch] = _is_punct(ch)
            if p:
                out.append(ch)
                start_new = True
            else:
                if start_new:
                    out.append("")
                start_new = False
                out[-1] += ch
        return out

    def _basic(self, text: str) -> list[str]:
        table = {}
        for ch in set(text):
            m = self._map_char(ch)
            if m != ch:
                table[ord(ch)] = m
        if table:
            text = text.translate(table)
        text = unicodedata.normalize("NFC", text)
        out: list[str] = []
        for token in text.split():
            if token not in self.special_set:
                if self.do_lower_case:
                    token = token.lower()
                    if self.strip_accents is not False and not token.isascii():
                        token = _strip_accents(token)
                elif self.strip_accents and not token.isascii():
                    token = _strip_accents(token)
                out.extend(self._split_punct(token))
            else:
                out.append(token)
        return " ".join(out).split()

    # -- WordPiece ------------------------------------------------------------------------------------------
    def _wordpiece(self, word: str) -> list[int]:
        got = self._words.get(word)
        if got is not None:
            return got
        vocab = self.vocab
        if len(word) > 100:  # WordpieceTokenizer.max_input_chars_per_word, checked first
            ids = [vocab[self.unk]]
        elif word in vocab:  # the greedy match tries the whole word first
            ids = [vocab[word]]
        else:
            ids = []
            start, n = 0, len(word)
            while start < n:
                end = n
                cur = None
                while start < end:
                    sub = word[start:end] if start == 0 else "##" + word[start:end]
                    if sub in vocab:
                        cur = vocab[sub]
                        break
                    end -= 1
                if cur is None:
                    ids = [vocab[self.unk]]
                    break
                ids.append(cur)
                start = end
        self._words[word] = ids
        return ids

    def tokenize_ids(self, text: str) -> list[int]:
        """Token ids of `text` without [CLS]/[SEP] (transformers' tokenize + convert_tokens_to_ids)."""
        ids: list[int] = []
        for i, part in enumerate(self._special_re.split(text)):
            if not part:
                continue
            if i % 2:  # a special token, kept whole
                ids.append(self.vocab[part])
                continue
            if self.do_lower_case:  # transformers lowercases character by character outside special tokens
                part = part.replace("\u03a3", "\u03c3").lower()  # per-character: no final-sigma rule
            for word in self._basic(part):
                ids.extend(self._wordpiece(word))
        return ids

    def encode(self, sent: str) -> list[int]:
        """bert-score's `sent_encode`: strip, [CLS] ids [SEP], right-truncated to max_length."""
        sent = sent.strip()
        ids = self.tokenize_ids(sent) if sent else []
        keep = max(self.max_length - 2, 0)
        return [self.cls_id, *ids[:keep], self.sep_id]


# ---------------------------------------------------------------------------------------------------------------
# Encoder
