"""Hand-made tiny cases for the relevance tests (fictional; no shared text copied)."""

from __future__ import annotations

from archehr.data.model import Case, KeyEntry, NoteSentence, Phrase, Relevance, SentenceLabel, Split

E, S, N = Relevance.ESSENTIAL, Relevance.SUPPLEMENTARY, Relevance.NOT_RELEVANT


def make_case(cid: str, question: str, clinician: str, sentences: list[tuple[str, Relevance]]) -> tuple[Case, KeyEntry]:
    sents = tuple(NoteSentence(str(i), 1, 0, t) for i, (t, _) in enumerate(sentences, start=1))
    case = Case(cid, patient_narrative=question, patient_question=(Phrase(0, 0, question),),
                clinician_question=clinician, note_excerpt=" ".join(t for t, _ in sentences), sentences=sents)
    key = KeyEntry(cid, tuple(SentenceLabel(str(i), lab) for i, (_, lab) in enumerate(sentences, start=1)))
    return case, key


TOPICS = [
    ("pacemaker", "Why did he need a pacemaker?", "Why was a pacemaker placed?",
     "He had complete heart block on telemetry and a pacemaker was placed."),
    ("diuretic", "Why did they change my water pill?", "Why was furosemide changed to torsemide?",
     "Furosemide was changed to torsemide because of poor absorption."),
    ("transfusion", "Why did he need so much blood?", "Why were three units of blood transfused?",
     "He received three units of packed red blood cells for a hemoglobin of 6.1."),
    ("stroke", "Why couldn't she get the clot-busting drug?", "Why was tPA not given for the stroke?",
     "tPA was not given because the stroke onset was outside the treatment window."),
    ("seizure", "Why was his seizure medicine switched?", "Why was phenytoin replaced by levetiracetam?",
     "Phenytoin was stopped for toxicity and levetiracetam was started for seizures."),
    ("kidney", "Why were his kidneys failing?", "What caused the acute kidney injury?",
     "The acute kidney injury was caused by dehydration, and creatinine improved with fluids."),
]
FILLER = [
    "Brief Hospital Course:",
    "The patient tolerated a regular diet.",
    "Physical therapy evaluated gait and cleared discharge home.",
    "Discharge Instructions:",
    "Please follow up with your primary care doctor in two weeks.",
]


def tiny_split(n: int = 6, name: str = "dev", with_key: bool = True) -> Split:
    cases, keys = [], []
    for i in range(n):
        topic, q, cq, answer = TOPICS[i % len(TOPICS)]
        sents = [(FILLER[0], N), (answer, E), (FILLER[1], N), (f"The {topic} plan was discussed with family.", S),
                 (FILLER[2], N), (FILLER[3], N), (FILLER[4], N)]
        c, k = make_case(str(i + 1), q, cq, sents)
        cases.append(c)
        keys.append(k)
    return Split(name, tuple(cases), tuple(keys) if with_key else None, source="/tmp/tiny-release/" + name)
