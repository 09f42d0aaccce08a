"""Builds the pip tests' wheels into a folder: small pure-Python projects (and a few broken ones), written
as a wheel builder writes them (PEP 427: the files, then .dist-info with METADATA, WHEEL and RECORD whose
rows hash every file), with Python's own zipfile. Usage: python3 build-wheels.py OUT_DIR"""
import base64
import hashlib
import os
import sys
import zipfile


def record_hash(data):
    return "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).decode().rstrip("=")


def wheel(out, name, version, files, requires=(), tag="py3-none-any", summary="", extra_entries=()):
    dist = name.replace("-", "_")
    info = "%s-%s.dist-info" % (dist, version)
    metadata = ["Metadata-Version: 2.1", "Name: %s" % name, "Version: %s" % version]
    if summary:
        metadata.append("Summary: %s" % summary)
    metadata.append("Author: Test Author")
    metadata.append("License: MIT")
    metadata += ["Requires-Dist: %s" % r for r in requires]
    entries = dict(files)
    entries["%s/METADATA" % info] = "\n".join(metadata) + "\n\nLong description.\n"
    entries["%s/WHEEL" % info] = "Wheel-Version: 1.0\nGenerator: build-wheels.py\nRoot-Is-Purelib: true\nTag: %s\n" % tag
    entries["%s/top_level.txt" % info] = name.split("-")[0] + "\n"
    rows = []
    path = os.path.join(out, "%s-%s-%s.whl" % (dist, version, tag))
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for entry, text in entries.items():
            data = text.encode() if isinstance(text, str) else text
            archive.writestr(entry, data)
            rows.append("%s,%s,%d" % (entry, record_hash(data), len(data)))
        for entry, text in extra_entries:
            archive.writestr(entry, text)
        rows.append("%s/RECORD,," % info)
        archive.writestr("%s/RECORD" % info, "\n".join(rows) + "\n")


def main(out):
    os.makedirs(out, exist_ok=True)
    for version in ("1.0", "1.2", "2.0b1"):
        wheel(out, "helperlib", version, {"helperlib.py": "VERSION = %r\n\ndef double(x):\n    return 2 * x\n" % version})
    wheel(
        out,
        "tinyx",
        "1.0",
        {
            "tinyx/__init__.py": "from helperlib import double\n\ndef answer():\n    return double(21)\n",
            "tinyx/sub/__init__.py": "NAME = 'sub'\n",
            "tinyx/data.txt": "some data\n",
            "tinyx-1.0.data/purelib/tinyx_extra.py": "EXTRA = True\n",
        },
        requires=(
            "helperlib>=1.1",
            'extraonly; extra == "fast"',
            'winonly; sys_platform == "win32"',
            'oldpython; python_version < "3.0"',
        ),
        summary="A tiny test package",
    )
    wheel(out, "badhash", "1.0", {"badhash.py": "X = 1\n"})
    wheel(out, "needsmissing", "1.0", {"needsmissing.py": "X = 1\n"}, requires=("nosuchpkg>=1",))
    wheel(out, "native", "1.0", {"native.py": "X = 1\n"}, tag="cp311-cp311-manylinux_2_17_x86_64")
    wheel(out, "evil", "1.0", {"evil.py": "X = 1\n"}, extra_entries=[("../escaped.py", "PWNED = 1\n")])


if __name__ == "__main__":
    main(sys.argv[1])
