"""`archehr serve`: a local web app and JSON API (FastAPI + uvicorn, imported only by this package).

Two pages and an API on one process bound to 127.0.0.1 unless told otherwise:
- `/` the ask page: a note and a patient question -> the cited answer (`archehr.answer`);
- `/runs` two or more runs side by side on a split with a key, per case (the scorer's per-case rows);
- `/api/answer`, `/api/score`, `/api/runs` (typed JSON; `/api` describes them, `/openapi.json` is the schema).

Privacy (clinical text): notes live only in the request's memory. Nothing writes them to disk (the LLM
reply cache is switched off), the access log carries method, path and status only, and every page is
self-contained (no font, script or style from anywhere else; a Content-Security-Policy says so).
"""
