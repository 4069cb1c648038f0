"""Questions in English mixed with another language, read in English before they are read
(`answerability.languages`, `glossary/languages/*.tsv`); invented lines, none from a writer's data."""

from __future__ import annotations

import pytest

from archehr.answerability.asked_for import ask_kind
from archehr.answerability.languages import LANGUAGE_KINDS, _layers, fold, in_english
from archehr.ask import read_question
from archehr.glossary import LANGUAGES_DIR, load_lexicon, parse_glossary


@pytest.mark.parametrize(("question", "kind"), [
    # Tagalog / Taglish: question words, a phrase read past its particle, a permission, a result
    ("bakit po kailangan ng x-ray si Tatay bago ang operasyon?", "why"),
    ("Gaano po katagal ang pamamaga ng tuhod after the surgery?", "how_long"),
    ("gaano katagal nya iinumin yung antibiotic", "how_long"),
    ("kelan po ang follow up ni Nanay?", "when"),
    ("Hanggang kailan po siya naka-brace?", "how_long"),
    ("Pwede po ba siya maligo bukas?", "may_i"),
    ("puwede ba mag drive si hubby next week?", "may_i"),
    ("ano po ang resulta ng blood test ni Lolo?", "test_result"),
    ("ilang araw po ang gamot niya?", "how_long"),
    # Spanish, with and without accents
    ("¿Por qué le cambiaron la pastilla a mi mamá?", "why"),
    ("por que mi papa tiene que dejar de tomar la aspirina", "why"),
    ("¿Cuánto tiempo tengo que usar el cabestrillo?", "how_long"),
    ("cuantos dias con el antibiotico?", "how_long"),
    ("¿Cuándo es la cita con el médico?", "when"),
    ("¿puedo manejar después de la operación?", "may_i"),
    # Hindi-Urdu in Latin letters
    ("kitne din tak yeh dawai leni hai?", "how_long"),
    ("doctor ne meri goli kyun band kar di?", "why"),
    ("kab hoga mera operation?", "when"),
    ("kya main operation ke baad gaadi chala sakta hoon?", "may_i"),
    # Portuguese, French, Haitian Creole, Nigerian Pidgin, Vietnamese, Arabic and Mandarin in Latin letters
    ("Quanto tempo minha mãe vai tomar o remédio?", "how_long"),
    ("posso tomar banho amanhã depois da cirurgia?", "may_i"),
    ("Pourquoi le médecin a arrêté mon médicament?", "why"),
    ("combien de temps je dois garder le pansement?", "how_long"),
    ("poukisa dokte a sispann medikaman an?", "why"),
    ("konbyen tan pou m pran grenn yo?", "how_long"),
    ("wetin make doctor stop the drug?", "why"),
    ("tai sao bac si ngung thuoc?", "why"),
    ("bao lau thi co the lai xe?", "how_long"),
    ("leh el doktor wa2af el dawa?", "why"),
    ("wei shen me yi sheng ting yao le?", "why"),
    # German mixed into English, umlauts folded or written with e
    ("Wie lange muss ich die Tabletten nehmen?", "how_long"),
    ("Warum wurde mein Blutverdünner abgesetzt?", "why"),
    ("wann ist der Termin beim Hausarzt?", "when"),
    ("Darf ich nach der OP duschen?", "may_i"),
    ("kann ich wieder Auto fahren?", "may_i"),
    ("was sind meine Blutwerte, zu hoch?", "test_result"),
    # Italian mixed into English, accents folded or left out
    ("Quando is the next visita with the ematologo?", "when"),
    ("Per quanto tempo my marito must keep the cerotto after the biopsia?", "how_long"),
    ("quanti giorni devo prendere l'antibiotico?", "how_long"),
    ("Perché they stopped the metformina of my moglie?", "why"),
    ("Posso fare la doccia with the catetere?", "may_i"),
])
def test_the_kind_of_a_question_asked_in_a_mixed_language(question: str, kind: str) -> None:
    assert ask_kind(read_question(question)[0]) == kind


@pytest.mark.parametrize("question", [
    "When can I come back to work after the surgery?",
    "May I take it with food?",
    "The ANO test was positive, what does it mean?",
    "Can I take my meds para my headache?",
    "My daughter says the dice game made her dizzy, is that the drug?",
    "Is it ok if my mom come with me to the appointment?",
    "My mom only speaks Hindi, can she have an interpreter?",
    "Is the ng tube coming out today?",
    "Should he take it po or iv?",
    "Sin or no sin, can I have a beer?",
    "Will the agar plate show the bug?",
    "Also, will the bad cut on my hand heal by the weekend?",
    "Was the man at the war memorial given a gift, so he will not die?",
    "Can I come to the appointment with my papa?",
    "Where does the dove go in la la land, come on?",
    "Della said the data is in the report, is that right?",
])
def test_an_english_question_is_left_as_it_is(question: str) -> None:
    assert in_english(question) == question


def test_a_word_also_english_is_read_only_beside_its_language() -> None:
    # Spanish "come" (eats) beside Spanish words; English "come back" in a Tagalog question stays
    assert "eats" in in_english("mi hijo no come nada desde la operación, es normal?")
    assert "come back" in in_english("kailan po ako pwede come back sa clinic?")
    # Tagalog "may" (there is) beside Tagalog, English "may I" stays
    assert "there is" in in_english("bakit po may dugo sa ihi niya?")
    assert "may I" in in_english("kasi po, may I ask kung kailan ang labs?")
    # "ANO" in capitals is an abbreviation even in a Tagalog question
    assert "ANO" in in_english("ano po ang ibig sabihin ng ANO sa report?")


def test_german_nouns_and_verbs_are_read_in_english() -> None:
    assert in_english("Wann ist der Termin beim Hausarzt?") == "when is the appointment at the primary care doctor?"
    assert in_english("Muss ich die Thrombosespritze nach dem Krankenhaus weiternehmen?") == \
        "do i have to the blood thinner injection after the hospital keep taking?"
    assert "bone density" in in_english("my Knochendichte was bad, wie lange the Spritze?")
    assert "bad" in in_english("my Knochendichte was bad, wie lange the Spritze?")
    assert in_english("Blutverduenner") == in_english("Blutverdünner")


def test_particles_and_prefixes_are_left_out() -> None:
    assert in_english("Pwede na po ba mag-drive?") == "is it ok to drive?"
    assert in_english("bakit po pinapa-stop ang gamot?") == "why stop the medicine?"


def test_accents_are_folded_and_show_the_language() -> None:
    assert fold("Cuándo") == "cuando"
    assert in_english("¿Qué dijo el médico?").startswith("¿what said")


def test_the_language_files_parse_and_keep_their_rules() -> None:
    from archehr.answerability.voices import english_vocabulary

    english = english_vocabulary()
    for p in sorted(LANGUAGES_DIR.glob("*.tsv")):
        text = p.read_text(encoding="utf-8")
        parse_glossary(text, str(p), LANGUAGE_KINDS)
        body = [ln for ln in text.splitlines() if not ln.startswith("#")]
        assert all(ln.isascii() for ln in body), f"{p.name}: terms are written without accents"
    for lang, g in _layers().items():
        for e in g.entries:
            if e.kind in ("word", "drop") and " " not in e.term:
                assert e.term not in english, f"{lang}: {e.term!r} is English: kind shared"


def test_the_lexicon_version_covers_the_language_files() -> None:
    assert "tl.tsv" in {p.name for p in LANGUAGES_DIR.glob("*.tsv")}
    assert load_lexicon().version


def test_a_capital_inside_a_german_sentence_is_its_noun_not_a_name() -> None:
    # German writes every noun with a capital: "Mutter" (also an English verb) is the mother, not a name
    assert in_english("Wie lange muss meine Mutter die Tabletten nehmen?") == "how long must my mother the pills take?"
    assert "my mother" in in_english("What did the Abstrich from the Wunde of my Mutter show?")
    # in a question that shows no German a capital inside the sentence is still a name
    assert in_english("Can Will Mutter something to the nurse?") == "Can Will Mutter something to the nurse?"


def test_everyday_german_words_of_a_patient_are_read() -> None:
    assert in_english("Ist der Knochen gebrochen?") == "is the bone broken?"
    assert in_english("Wann darf ich mit den Übungen anfangen?") == "when may i with the exercises start?"
    assert "prescription" in in_english("Brauche ich ein neues Rezept für die Schmerzmittel?")
    assert "crutches" in in_english("Wie lange braucht sie die Krücken?")
    assert "emergency department" in in_english("Wann müssen wir in die Notaufnahme?")
    assert "remove the stitches" in in_english("Wann kann der Hausarzt die Fäden ziehen?")


def test_everyday_spanish_and_tagalog_words_of_a_patient_are_read() -> None:
    assert "urologist" in in_english("¿cuándo tengo que ver al urólogo?")
    assert "culture" in in_english("fui a emergencia, ¿qué salió en el cultivo?")
    assert "emergency" in in_english("fui a emergencia, ¿qué salió en el cultivo?")
    assert "barefoot" in in_english("¿puedo caminar descalzo en la casa?")
    assert "numb" in in_english("bakit po manhid pa rin ang paa ko?")
    assert "foot" in in_english("bakit po manhid pa rin ang paa ko?")
    assert "next" in in_english("kailan po ang susunod na balik sa doktor?")


def test_a_shared_word_before_an_english_particle_stays_english() -> None:
    # "come out" is English even beside a Spanish word; "no come nada" is "does not eat"
    assert in_english("when do the puntos come out?") == "when do the stitches come out?"
    assert "eats" in in_english("mi hijo no come nada desde la operación")


def test_everyday_italian_words_of_a_patient_are_read() -> None:
    assert in_english("Quanto è the emoglobina of my mother?") == "how much is the hemoglobin of my mother?"
    assert in_english("Can my figlio go to the piscina after the chemio?") == \
        "Can my son go to the swimming pool after the chemo?"
    assert "allopurinol" in in_english("the dottore reduced the allopurinolo?")
    assert "platelets" in in_english("che cosa significa piastrine basse?")
    assert "blood draw" in in_english("when is the prelievo di sangue before the ciclo?")
    # "papa", "la", "come" are English too: read only beside Italian words
    assert "dad" in in_english("Is the vaccino ok for papà this year?")
    assert in_english("My papa will come later") == "My papa will come later"


def test_a_word_of_one_language_is_read_over_a_shared_word_of_another() -> None:
    # "quando" is Portuguese's word and Italian's shared one (spelled the same): read where Italian shows more
    assert in_english("Quando is the next medicazione?") == "when is the next dressing?"
    # a Spanish question with a drug name spelled the Italian way reads no Italian small word ("le" stays)
    assert in_english("¿por qué le quitaron la metformina?").startswith("¿why le")


def test_letters_with_no_decomposition_are_folded() -> None:
    # Turkish dotless i, Polish l with a stroke, Vietnamese d with a stroke: one letter for one
    assert fold("ilacı") == "ilaci"
    assert fold("Długo") == "dlugo"
    assert fold("Đau") == "dau"
    assert in_english("Đau bụng, bao lâu?") == in_english("Dau bung, bao lau?")


def test_a_greeting_left_out_takes_its_punctuation() -> None:
    assert in_english("Bitte, wann ist der Termin?") == "when is the appointment?"
    assert in_english("Wann ist der Termin, bitte?") == "when is the appointment?"
    assert in_english("bakit po tumigil ang gamot, naman?") == "why tumigil the medicine?"


@pytest.mark.parametrize(("question", "reading"), [
    # Korean in Latin letters (Revised Romanisation and informal spellings)
    ("eomma yak eonje stop?", "mom medicine when stop?"),
    ("Halmeoni gwaenchana to eat juk after the susul?", "grandmother is it ok to eat rice porridge after the surgery?"),
    # Turkish, with and without its letters
    ("Babam şeker ilacı, ne zaman he can start again?", "my dad diabetes medicine, when he can start again?"),
    ("annemin tansiyon ilaci neden changed?", "my mom's blood pressure medicine why changed?"),
    # Russian in Latin letters
    ("Pochemu the vrach changed my mama tabletki?", "why the doctor changed my mom pills?"),
    ("skolko dnei my muzh must take lekarstvo?", "how many days my husband must take medicine?"),
    # Polish, with and without its letters
    ("Jak długo moja mama must take tabletki?", "how long my mom must take pills?"),
    ("kiedy is the wizyta in szpital for the badanie?", "when is the appointment in hospital for the test?"),
    # Somali
    ("Goorma hooyo can take the daawo again?", "when mom can take the medicine again?"),
    ("imisa maalmood the kiniin for my walaal?", "how many days the pill for my sibling?"),
    # Welsh words in the English of Wales
    ("my mam asked pryd the ysbyty appointment is?", "my mum asked when the hospital appointment is?"),
    ("Is it ok for bampi to have a cwtch with the babi?", "Is it ok for grandad to have a cuddle with the baby?"),
])
def test_a_question_in_a_further_language_is_read_in_english(question: str, reading: str) -> None:
    assert in_english(question) == reading


@pytest.mark.parametrize(("question", "kind"), [
    ("appa byeongwon yeyak eolmana orae?", "how_long"),
    ("Annem ilacını ne kadar süre kullanacak?", "how_long"),
    ("Kogda my papa can do vodit mashinu?", "when"),
    ("Dlaczego lekarz odstawil the leki?", "why"),
    ("Maxaa yeelay dhakhtarka stopped the daawo of aabo?", "why"),
    ("Pryd will mamgu have her prawf gwaed?", "when"),
])
def test_the_kind_of_a_question_in_a_further_language(question: str, kind: str) -> None:
    assert ask_kind(read_question(question)[0]) == kind


@pytest.mark.parametrize("question", [
    # the shared words of ko, tr, ru, pl, so and cy in English questions
    "Can my pal feed the yak at the farm, or did the ABBA song and the bam of noise hurt his ears, yo?",
    "Kim said Anne and baba can go to the gun range, is that ok if I'm az fit as a fiddle?",
    "Is the NET result from the EEG ok, da? My son is a brat and the chai is hot.",
    "Is the zona rash a side effect, and can I take a pic of it for Tata Steel HR, co-worker says so?",
    "Can I cab to the clinic, or does Maya or Kelli need to take me, haa?",
    "Did Pam and Beth say the tabled report on my mAb is ok, and is the plant merch safe?",
])
def test_an_english_question_with_the_further_languages_shared_words_is_left_as_it_is(question: str) -> None:
    assert in_english(question) == question


def test_a_word_of_polish_with_its_letters_and_a_welsh_greeting_are_read() -> None:
    assert in_english("jak długo") == in_english("jak dlugo") == "how long"
    assert in_english("Dzień dobry. When is the wizyta in the szpital?") == "When is the appointment in the hospital?"
    assert in_english("Proszę, kiedy is the wizyta?") == "when is the appointment?"
    # the exclamations and words of address of Welsh English are left out
    assert in_english("Duw duw, pryd is the ysbyty appointment, cariad?") == "when is the hospital appointment?"


@pytest.mark.parametrize(("question", "reading"), [
    # Japanese in romaji (Hepburn and informal long vowels); "sumimasen", "onegaishimasu" are left out
    ("Sumimasen, okaasan no kusuri itsu made?", "mom no medicine until when?"),
    ("naze the sensei stopped the kusuri of otousan?", "why the doctor stopped the medicine of dad?"),
    ("Dono kurai obaachan must stay in the byoin, onegaishimasu?", "how long grandmother must stay in the hospital?"),
    # Persian in Latin letters; "salam", "mamnoon" are left out
    ("Salam, chera doktor changed the daroo of madaram?", "why doctor changed the medicine of my mother?"),
    ("chand vaght pedaram must take the ghors, mamnoon?", "how long my father must take the pill?"),
    # Greek in Latin letters; "efharisto" is left out
    ("giati o giatros stopped the farmaka of my yiayia?", "why the doctor stopped the medicines of my grandmother?"),
    ("poso kairo the pappous must stay sto nosokomeio, efharisto?",
     "how long the grandfather must stay in the hospital?"),
])
def test_a_question_in_japanese_persian_or_greek_is_read_in_english(question: str, reading: str) -> None:
    assert in_english(question) == reading


@pytest.mark.parametrize(("question", "kind"), [
    ("doushite the isha yameta the kusuri?", "why"),
    ("kei pedaram has the nobat for azmayesh khoon?", "when"),
    ("pote can mana mou go back to douleia after the egxeirisi?", "when"),
])
def test_the_kind_of_a_question_in_japanese_persian_or_greek(question: str, kind: str) -> None:
    assert ask_kind(read_question(question)[0]) == kind


@pytest.mark.parametrize("question", [
    # the shared words of ja, fa and el in English questions
    "Can my nan have sake or chichi tea, or is the demo at Asa's ok, haha? Otto and Danna said so.",
    "Did Alan put the key in the amp, and can Kei tab to the chai on the bala? Chand and Amal said merci.",
    "Is the meta analysis of the mines ok, and does the Kardia show poly rhythm? Nero and Kori said no.",
])
def test_an_english_question_with_the_shared_words_of_ja_fa_el_is_left_as_it_is(question: str) -> None:
    assert in_english(question) == question


def test_long_vowels_and_letters_of_japanese_persian_and_greek_are_spelled_several_ways() -> None:
    assert in_english("byouin kusuri") == in_english("byoin kusuri") == in_english("byooin kusuri")
    assert in_english("daroo madaram") == in_english("darou madaram") == in_english("daru madaram")
    assert in_english("xapia giatros") == in_english("hapia yiatros") == in_english("chapia giatros")


@pytest.mark.parametrize(("question", "reading"), [
    # Romanian with its accents folded
    ("De ce doctorul stopped the pastilele of tata?", "why the doctor stopped the pills of dad?"),
    ("Cât timp must mama keep the gips on?", "how long must mom keep the cast on?"),
    # Dutch
    ("Wanneer must the huisarts check the bloed of my vader?", "when must the gp check the blood of my father?"),
    ("hoe lang must oma take the pijnstillers?", "how long must grandmother take the painkillers?"),
    # Bengali in Latin letters
    ("keno the daktar stopped the oshud of amma?", "why the doctor stopped the medicine of mom?"),
    # "presher" is the blood pressure, and "blood presher" too (not "blood blood pressure")
    ("kobe is the blood presher check of my shami?", "when is the blood pressure check of my husband?"),
    # Greek and Japanese clinic words
    ("giati my pateras needed metaggisi?", "why my father needed blood transfusion?"),
    ("the akachan of my kodomo is ok?", "the baby of my child is ok?"),
])
def test_a_question_in_romanian_dutch_or_bengali_is_read_in_english(question: str, reading: str) -> None:
    assert in_english(question) == reading


@pytest.mark.parametrize("question", [
    # the shared words of ro, nl and bn in English questions
    "Can I pot the plant, mama, and is the control ok? Tata said the arts and the pil are fine.",
    "Is the lever on the hart ok, Ki? Bon and Opa said the specialist is fine.",
])
def test_an_english_question_with_the_shared_words_of_ro_nl_bn_is_left_as_it_is(question: str) -> None:
    assert in_english(question) == question
