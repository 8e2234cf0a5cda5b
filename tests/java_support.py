"""Java programs of the tests (tests/java/*.java) compiled once into a temporary directory and run with the JDK: a real
``java.util.HashMap`` is the oracle for the order the Check emulates (:mod:`bpe.java_order`)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

SOURCES = Path(__file__).parent / "java"


@pytest.fixture(scope="session")
def java_classes(tmp_path_factory) -> Path:
    """The directory of the compiled classes (scripts/test.sh installs a JDK where none is)."""
    if shutil.which("javac") is None:
        raise RuntimeError("no javac: scripts/test.sh installs Debian's default-jdk-headless")
    out = tmp_path_factory.mktemp("java")
    subprocess.run(["javac", "-d", str(out), *map(str, sorted(SOURCES.glob("*.java")))], check=True)
    return out


def run_java(classes: Path, main: str, *args: str, stdin: str = "") -> str:
    """What ``java main args`` prints (UTF-8), given ``stdin``."""
    done = subprocess.run(
        ["java", "-Dfile.encoding=UTF-8", "-cp", str(classes), main, *args],
        input=stdin.encode(), capture_output=True, check=True, timeout=120,
    )  # fmt: skip
    return done.stdout.decode("utf-8")
