// The live class in the browser (ui/classroom.py), three jobs given by window.bpeClass:
// keep: the teacher's "code.token" kept in a cookie this browser sends back when the page is
//   reloaded (st.context.cookies reads it), so a reload does not lose the class; "" forgets it.
//   The cookie goes to this app's own server only, never into a link.
// sync: a following student's poll saw the teacher move: press the step view's hidden button, so
//   only the step view runs again (a fragment), not the whole page.
// follow (milliseconds): a following student's page asks the class state route
//   (server/class_route.py: an HTTP answer, not a script run) with the newest serial it knows; the
//   answer waits until the teacher moves (a long poll, at most a few seconds). The step view's line
//   "Following the teacher" carries the serial it shows (data-bpe-serial) and the route to ask
//   (data-bpe-poll); when the route's serial is another, or the class has ended (404), press the
//   hidden button: the step view's first lines take the teacher's step, or run the whole page. A
//   press that brought nothing new within `retry` milliseconds is made again (a run may have
//   swallowed it). An answer that came at once without news (an ended class, the store away, no
//   server) waits `follow` milliseconds before the next ask. No line, no asking: the student
//   explores on their own, or the class has ended. Installed once per page.
(() => {
  const c = window.bpeClass || {};
  const press = () => {
    const button = document.querySelector(".st-key-class_sync button");
    if (button) button.click();
    return Boolean(button);
  };
  if (typeof c.keep === "string") {
    const age = c.keep ? c.maxAge : 0;
    document.cookie = `${c.cookie}=${c.keep}; path=/; max-age=${age}; SameSite=Strict`;
  }
  if (c.sync) press();
  if (c.follow && !window.bpeFollowing) {
    window.bpeFollowing = true;
    const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
    const line = () => document.querySelector("[data-bpe-poll]");
    let known = null; // the newest serial the route answered
    let pressedFor = null;
    let pressedAt = 0;
    const follow = async () => {
      for (;;) {
        const asked = line();
        if (!asked || !asked.dataset.bpePoll) {
          known = null;
          await pause(c.follow);
          continue;
        }
        const after = known === null ? asked.dataset.bpeSerial : known;
        let want = null;
        try {
          const url = `${asked.dataset.bpePoll}&after=${encodeURIComponent(after)}`;
          const r = await fetch(url, { cache: "no-store", credentials: "same-origin" });
          if (r.status === 200) want = String((await r.json()).serial);
          else if (r.status === 404) want = "ended";
        } catch (e) {
          // The server is away (a restart): ask again in a moment.
        }
        if (want === null || want === "ended") await pause(c.follow);
        if (want === null) continue;
        if (want !== "ended") known = want;
        // Read the line again: a run may have drawn a newer one while the answer came.
        const shown = line();
        if (!shown || shown.dataset.bpeSerial === want) continue;
        if (want === pressedFor && Date.now() - pressedAt < c.retry) {
          await pause(c.follow);
          continue;
        }
        if (press()) {
          pressedFor = want;
          pressedAt = Date.now();
        }
      }
    };
    follow();
  }
})();
