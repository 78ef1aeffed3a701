# tests/lib/xvfb.sh: the real-window tests' display and window, sourced by tests/window.test.sh,
# tests/viewer_window.test.sh and tests/antialias_window.test.sh as `. "$(dirname "$0")/lib/xvfb.sh"`. It is not a
# test: tests/run_tests.sh runs tests/*.test.sh only. Each test keeps its own checks and messages: a function here
# that fails returns non-zero and leaves the reason in $xvfb_error (or in the viewer's log) for the test to report.
# The viewer under test is $app (a process id; empty when none runs); its window is $win.
app=""
win=""
xvfb_pid=""
xvfb_error=""
xvfb_scratch="" # a directory of the test's that the exit trap removes too, when the test sets it

# The window's libraries (X11, GL, D-Bus) keep allocations to the end, some in modules unloaded by then that no
# suppression can name: under the sanitizer build, leak detection is off for the window processes (the keyframes'
# own code is checked for leaks by test_sim_snapshot and the offscreen paths by render and video.test.sh).
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"

# the exit trap: ends the viewer and the server (waited for, so no defunct server is left to a parent that does not
# reap), removes $xvfb_scratch
xvfb_cleanup() {
    [ -n "$app" ] && kill "$app" 2>/dev/null
    [ -n "$xvfb_pid" ] && kill "$xvfb_pid" 2>/dev/null && wait "$xvfb_pid" 2>/dev/null
    [ -n "$xvfb_scratch" ] && rm -rf "$xvfb_scratch"
    return 0
}
trap xvfb_cleanup EXIT
trap 'exit 1' INT TERM

# xvfb_start WxH DIR: a display of the test's own, its screen WxH (24-bit colour), exported as DISPLAY once the
# server answers. The number is chosen by the server (-displayfd: a free one, taken atomically; picking it from the
# lock files raced with other runs of the tests) and written to DIR/display. -noreset: by default an X server resets
# when its last client leaves, and drops the connections made meanwhile; xdotool's and import's calls leave one
# after another, so the viewer's connection sometimes met a reset, SDL fell back to its offscreen driver and no
# window showed.
xvfb_start() {
    Xvfb -displayfd 3 -noreset -screen 0 "$1x24" -nolisten tcp 3>"$2/display" >/dev/null 2>&1 &
    xvfb_pid=$!
    xvfb_n=""
    for xvfb_i in $(seq 1 150); do # up to 30 s on a loaded machine
        xvfb_n=$(cat "$2/display" 2>/dev/null)
        [ -n "$xvfb_n" ] && break
        kill -0 "$xvfb_pid" 2>/dev/null || break
        sleep 0.2
    done
    [ -n "$xvfb_n" ] || { xvfb_error="Xvfb starts and names its display within 30 s"; return 1; }
    export DISPLAY=":$xvfb_n"
    # the server must answer before the viewer starts: a viewer that finds no display runs headless and opens nothing
    for xvfb_i in $(seq 1 150); do # up to 30 s on a loaded machine
        xdotool getmouselocation >/dev/null 2>&1 && return 0
        sleep 0.2
    done
    xvfb_error="Xvfb :$xvfb_n answers within 30 s"
    return 1
}

# xvfb_window PID: waits until the viewer PID's window shows (mapped, titled "racesim - RACE"), at most 60 s (a
# loaded machine builds the drivers' tables slowly) and no longer than PID runs; sets $win, empty when none showed
xvfb_window() {
    win=""
    for xvfb_i in $(seq 1 300); do
        win=$(xdotool search --onlyvisible --name '^racesim - ' 2>/dev/null | head -n 1)
        [ -n "$win" ] && return 0
        kill -0 "$1" 2>/dev/null || return 1
        sleep 0.2
    done
    return 1
}

# xvfb_open LOG COMMAND...: runs the viewer COMMAND (its output to LOG) as $app and waits for its window, then moves
# it to the top left corner and gives it the focus. Without a window the viewer is ended (it would outlive the test:
# the trap ends only the last) and LOG says whether it exited by itself.
xvfb_open() {
    xvfb_log="$1"
    shift
    "$@" >"$xvfb_log" 2>&1 &
    app=$!
    if ! xvfb_window "$app"; then
        kill -0 "$app" 2>/dev/null || echo "(the viewer exited before a window showed)" >>"$xvfb_log"
        kill "$app" 2>/dev/null
        wait "$app" 2>/dev/null
        app=""
        return 1
    fi
    xdotool windowmove "$win" 0 0 windowfocus --sync "$win" >/dev/null 2>&1
    sleep 0.5
}

# xvfb_close: Escape to the window, a few seconds for the viewer to leave, then it is ended
xvfb_close() {
    xdotool key --window "$win" Escape >/dev/null 2>&1
    for xvfb_i in $(seq 1 25); do
        kill -0 "$app" 2>/dev/null || break
        sleep 0.2
    done
    kill "$app" 2>/dev/null
    wait "$app" 2>/dev/null
    app=""
}
