#!/usr/bin/env python3
"""Check that gold splits cover raw notes exactly (whitespace and bullet markers removed)."""
import re, sys, glob, os

HERE = os.path.dirname(os.path.abspath(__file__))
MARK = re.compile(r'^\s*(?:•|-|\*|\[ \]|\[x\]|\[X\]|☐|☑)\s+')

def norm_raw(text):
    out = []
    for line in text.splitlines():
        out.append(re.sub(r'\s+', '', MARK.sub('', line)))
    return ''.join(out)

def main():
    ok = True
    total = 0
    for raw in sorted(glob.glob(os.path.join(HERE, 'raw', '*.txt'))):
        if raw.endswith('.sentences.txt'):
            continue
        stem = raw[:-4]
        sp = stem + '.sentences.txt'
        if not os.path.exists(sp):
            print('MISSING', sp); ok = False; continue
        units = open(sp, encoding='utf-8').read().splitlines()
        bad = [i + 1 for i, u in enumerate(units) if not u.strip() or MARK.match(u) or u != u.strip()]
        if bad:
            print(os.path.basename(sp), 'empty/marker/untrimmed units at lines', bad); ok = False
        a = norm_raw(open(raw, encoding='utf-8').read())
        b = ''.join(re.sub(r'\s+', '', u) for u in units)
        total += len(units)
        if a != b:
            ok = False
            i = next((k for k in range(min(len(a), len(b))) if a[k] != b[k]), min(len(a), len(b)))
            print(os.path.basename(raw), 'MISMATCH at', i, '\n  raw  :', a[max(0, i-40):i+40], '\n  split:', b[max(0, i-40):i+40])
        else:
            print(os.path.basename(raw), 'ok', len(units), 'units')
    print('TOTAL units', total)
    sys.exit(0 if ok else 1)

if __name__ == '__main__':
    main()
