"""Writes the examples' costumes (SVG, named by md5 as Scratch's assetId/md5ext) and points
each project's costumes at them. Run after scripts/suite_examples.py (which writes the projects without assets); the
suites and broken variants judge the same with these costumes (`gobo test` verdicts unchanged)."""
import hashlib, json, os, sys

def svg(w, h, body):
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" '
            f'viewBox="0 0 {w} {h}">\n{body}\n</svg>\n')

SKY = svg(480, 360, '''<rect width="480" height="360" fill="#bfe6ff"/>
<circle cx="400" cy="70" r="36" fill="#ffd84d"/>
<ellipse cx="120" cy="360" rx="260" ry="90" fill="#8fd16a"/>
<ellipse cx="390" cy="370" rx="220" ry="80" fill="#74c257"/>
<ellipse cx="110" cy="80" rx="46" ry="18" fill="#ffffff"/>
<ellipse cx="150" cy="70" rx="34" ry="16" fill="#ffffff"/>''')

NIGHT = svg(480, 360, '''<rect width="480" height="360" fill="#1d2b5a"/>
<circle cx="390" cy="70" r="34" fill="#f4f1d0"/>
<circle cx="376" cy="62" r="30" fill="#1d2b5a"/>
<circle cx="60" cy="50" r="3" fill="#ffffff"/><circle cx="150" cy="90" r="2" fill="#ffffff"/>
<circle cx="240" cy="40" r="3" fill="#ffffff"/><circle cx="300" cy="120" r="2" fill="#ffffff"/>
<circle cx="100" cy="150" r="2" fill="#ffffff"/><circle cx="440" cy="170" r="3" fill="#ffffff"/>
<ellipse cx="240" cy="380" rx="330" ry="90" fill="#22402a"/>''')

FACE = svg(80, 80, '''<circle cx="40" cy="40" r="36" fill="#ffcf3f" stroke="#c98a00" stroke-width="4"/>
<circle cx="28" cy="32" r="5" fill="#3a2a00"/><circle cx="52" cy="32" r="5" fill="#3a2a00"/>
<path d="M24 50 Q40 64 56 50" fill="none" stroke="#3a2a00" stroke-width="4" stroke-linecap="round"/>''')

def cat(eyes):
    return svg(96, 96, f'''<path d="M14 40 L20 6 L42 26 Z" fill="#f28c28"/>
<path d="M82 40 L76 6 L54 26 Z" fill="#f28c28"/>
<path d="M20 34 L23 16 L35 28 Z" fill="#ffc4d6"/><path d="M76 34 L73 16 L61 28 Z" fill="#ffc4d6"/>
<ellipse cx="48" cy="54" rx="38" ry="34" fill="#f28c28"/>
<ellipse cx="48" cy="66" rx="18" ry="12" fill="#ffe3c4"/>
{eyes}
<path d="M44 60 L52 60 L48 65 Z" fill="#e0506e"/>
<path d="M48 65 Q42 72 37 68 M48 65 Q54 72 59 68" fill="none" stroke="#5a2d0c" stroke-width="2.5" stroke-linecap="round"/>''')

CAT_OPEN = cat('<ellipse cx="34" cy="46" rx="6" ry="8" fill="#2d5a1c"/><ellipse cx="62" cy="46" rx="6" ry="8" fill="#2d5a1c"/>')
CAT_OUCH = cat('<path d="M27 42 L41 50 M27 50 L41 42 M55 42 L69 50 M55 50 L69 42" stroke="#5a2d0c" stroke-width="3.5" stroke-linecap="round"/>')

POINTER = svg(32, 32, '''<circle cx="16" cy="16" r="12" fill="none" stroke="#d6336c" stroke-width="4"/>
<circle cx="16" cy="16" r="4" fill="#d6336c"/>''')

CHALK = svg(480, 360, '''<rect width="480" height="360" fill="#e9d7b4"/>
<rect x="40" y="30" width="400" height="220" rx="8" fill="#8a5a2b"/>
<rect x="52" y="42" width="376" height="196" fill="#2f5d46"/>
<path d="M80 90 L200 90 M80 130 L260 130 M80 170 L160 170" stroke="#dfeee6" stroke-width="5" stroke-linecap="round"/>
<rect y="300" width="480" height="60" fill="#b98b5a"/>''')

PARTY = svg(480, 360, '''<rect width="480" height="360" fill="#fff3c4"/>
<circle cx="240" cy="170" r="80" fill="#ffd84d" stroke="#e0a800" stroke-width="8"/>
<path d="M200 170 L230 200 L285 140" fill="none" stroke="#3c8d2f" stroke-width="14" stroke-linecap="round" stroke-linejoin="round"/>
<rect x="60" y="60" width="14" height="14" fill="#e0506e" transform="rotate(20 67 67)"/>
<rect x="400" y="80" width="14" height="14" fill="#4a90e2" transform="rotate(-25 407 87)"/>
<rect x="90" y="280" width="14" height="14" fill="#3c8d2f" transform="rotate(40 97 287)"/>
<rect x="380" y="270" width="14" height="14" fill="#9b59b6" transform="rotate(10 387 277)"/>''')

TEACHER = svg(80, 120, '''<path d="M10 118 Q10 70 40 70 Q70 70 70 118 Z" fill="#4a90e2"/>
<path d="M32 70 L40 86 L48 70 Z" fill="#ffffff"/>
<circle cx="40" cy="40" r="26" fill="#f5c9a0"/>
<path d="M14 40 Q14 10 40 12 Q66 10 66 40 Q58 24 40 24 Q22 24 14 40 Z" fill="#6b3e1f"/>
<circle cx="31" cy="42" r="7" fill="none" stroke="#333333" stroke-width="2.5"/>
<circle cx="49" cy="42" r="7" fill="none" stroke="#333333" stroke-width="2.5"/>
<path d="M38 42 L42 42" stroke="#333333" stroke-width="2.5"/>
<path d="M32 54 Q40 60 48 54" fill="none" stroke="#8a3b2b" stroke-width="3" stroke-linecap="round"/>''')

PALE = svg(480, 360, '''<rect width="480" height="360" fill="#eef3f8"/>
<path d="M0 300 L480 300" stroke="#c5d3e0" stroke-width="4"/>''')

LAMP = svg(60, 90, '''<circle cx="30" cy="32" r="26" fill="#ffe066" stroke="#e0a800" stroke-width="4"/>
<path d="M22 34 L26 42 L30 34 L34 42 L38 34" fill="none" stroke="#e07b00" stroke-width="3"/>
<rect x="18" y="58" width="24" height="10" fill="#9aa5b1"/>
<rect x="18" y="70" width="24" height="10" fill="#7b8794"/>
<rect x="24" y="82" width="12" height="6" rx="3" fill="#52606d"/>''')

BALL = svg(48, 48, '''<circle cx="24" cy="24" r="21" fill="#e8483b" stroke="#a32318" stroke-width="4"/>
<ellipse cx="17" cy="16" rx="6" ry="4" fill="#ff9d93"/>''')

STAR = svg(60, 60, '''<path d="M30 3 L37.6 21.1 L57.1 22.6 L42.3 35.4 L46.8 54.4 L30 44.2 L13.2 54.4 L17.7 35.4 L2.9 22.6 L22.4 21.1 Z" fill="#9b59b6" stroke="#6c3483" stroke-width="3" stroke-linejoin="round"/>''')

# (example, target, costume name) -> (svg text, rotation centre)
COSTUMES = {
    ('guess', 'Stage', 'backdrop1'): (SKY, (240, 180)),
    ('guess', 'Guesser', 'dot'): (FACE, (40, 40)),
    ('keys', 'Stage', 'day'): (SKY, (240, 180)),
    ('keys', 'Stage', 'night'): (NIGHT, (240, 180)),
    ('keys', 'Cat', 'c1'): (CAT_OPEN, (48, 52)),
    ('keys', 'Cat', 'c2'): (CAT_OUCH, (48, 52)),
    ('keys', 'Pointer', 'c1'): (POINTER, (16, 16)),
    ('quiz', 'Stage', 'quiz'): (CHALK, (240, 180)),
    ('quiz', 'Stage', 'end'): (PARTY, (240, 180)),
    ('quiz', 'Teacher', 'c1'): (TEACHER, (40, 60)),
    ('timing', 'Stage', 'c1'): (PALE, (240, 180)),
    ('timing', 'Lamp', 'c1'): (LAMP, (30, 45)),
    ('timing', 'Ball', 'c1'): (BALL, (24, 24)),
    ('timing', 'Spawner', 'c1'): (STAR, (30, 30)),
}

root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
for ex in ('guess', 'keys', 'quiz', 'timing'):
    folder = os.path.join(root, 'examples/scratch', ex)
    assets = os.path.join(folder, 'assets')
    os.makedirs(assets, exist_ok=True)
    for fname in ('project.json', 'broken.json'):
        path = os.path.join(folder, fname)
        if not os.path.exists(path):
            continue
        text = open(path).read()
        d = json.loads(text)
        for t in d['targets']:
            for c in t['costumes']:
                body, (cx, cy) = COSTUMES[(ex, t['name'], c['name'])]
                md5 = hashlib.md5(body.encode()).hexdigest()
                with open(os.path.join(assets, md5 + '.svg'), 'w') as f:
                    f.write(body)
                c['assetId'] = md5
                c['md5ext'] = md5 + '.svg'
                c['dataFormat'] = 'svg'
                c['rotationCenterX'] = cx
                c['rotationCenterY'] = cy
                c['bitmapResolution'] = 1
        out = json.dumps(d, indent=1, ensure_ascii=False) + ('\n' if text.endswith('\n') else '')
        with open(path, 'w') as f:
            f.write(out)
