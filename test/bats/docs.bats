#!/usr/bin/env bats
# docs.bats - every tool's man page, completions and --help agree.
#
# docs/conventions.md §13: a long option in --help that the man page or a
# completion file does not mention is a documentation bug. Man pages must also
# be clean under mandoc's linter.

load common

# long_options TOOL: the long options TOOL's --help lists, one per line.
long_options() {
  "$1" --help | grep -oE -- '--[a-z][a-z0-9-]*' | sort -u
}

@test "every tool has a man page that mandoc lints without warnings" {
  for t in "${WAVE_TOOLS[@]}"; do
    run mandoc -Tlint -W warning "$WAVE_SOURCE_DIR/man/$t.1"
    assert_success
    assert_output ""
  done
  run mandoc -Tlint -W warning "$WAVE_SOURCE_DIR/man/wave.7"
  assert_success
}

@test "every long option in --help is documented in the man page" {
  for t in "${WAVE_TOOLS[@]}"; do
    while read -r opt; do
      grep -qe "${opt#--}" "$WAVE_SOURCE_DIR/man/$t.1" ||
        fail "$t: $opt is missing from man/$t.1"
    done < <(long_options "$t")
  done
}

@test "every long option in --help is offered by the bash and zsh completions" {
  for t in "${WAVE_TOOLS[@]}"; do
    while read -r opt; do
      grep -qe "$opt" "$WAVE_SOURCE_DIR/completions/bash/$t" ||
        fail "$t: $opt is missing from completions/bash/$t"
      grep -qe "$opt" "$WAVE_SOURCE_DIR/completions/zsh/_$t" ||
        fail "$t: $opt is missing from completions/zsh/_$t"
    done < <(long_options "$t")
  done
}

@test "bash completion scripts load and complete long options" {
  for t in "${WAVE_TOOLS[@]}"; do
    run bash -c "
      source '$WAVE_SOURCE_DIR/completions/bash/$t'
      fn=\$(complete -p $t | sed -E 's/.*-F ([^ ]+).*/\1/')
      COMP_WORDS=($t --he); COMP_CWORD=1; COMP_LINE='$t --he'; COMP_POINT=\${#COMP_LINE}
      \$fn $t --he $t
      printf '%s\n' \"\${COMPREPLY[@]}\""
    assert_success
    assert_line "--help"
  done
}

@test "zsh completion scripts parse" {
  command -v zsh >/dev/null || skip "zsh is not installed"
  for t in "${WAVE_TOOLS[@]}"; do
    run zsh -n "$WAVE_SOURCE_DIR/completions/zsh/_$t"
    assert_success
  done
}

@test "every tool answers --version with the project version" {
  for t in "${WAVE_TOOLS[@]}"; do
    run "$t" --version
    assert_success
    assert_output --partial "wavetools"
  done
}

@test "cmake --install puts every format document the man pages cite under share/doc/wavetools" {
  build="$(cd "$WAVE_BIN/.." && pwd)"
  [ -f "$build/cmake_install.cmake" ] || skip "no CMake build tree at $build"
  dest="$BATS_TEST_TMPDIR/inst"
  run cmake --install "$build" --prefix "$dest" --component Unspecified
  assert_success
  for page in "$WAVE_SOURCE_DIR"/man/*.[17]; do
    while read -r doc; do
      [ -f "$dest/share/doc/wavetools/$doc" ] ||
        fail "$(basename "$page") cites $doc, which is not installed"
    done < <(grep -oE 'formats/[a-z0-9-]+\.md' "$page" | sort -u)
  done
  [ -f "$dest/share/doc/wavetools/formats/isa.md" ]
}
