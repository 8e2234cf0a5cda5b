// The live class in the browser (ui/classroom.py), three jobs given by window.bpeClass:
// keep: the teacher's "code.token" kept in a cookie this browser sends back when the page is
//   reloaded (st.context.cookies reads it), so a reload does not lose the class; "" forgets it.
//   The cookie goes to this app's own server only, never into a link.
// sync: a following student's poll saw the teacher move: press the step view's hidden button, so
//   only the step view runs again (a fragment), not the whole page.
// follow (milliseconds): a following student's page asks the class state route this often
//   (server/class_route.py: an HTTP answer, not a script run). The step view's line "Following the
//   teacher" carries the serial it shows (data-bpe-serial) and the route to ask (data-bpe-poll);
//   when the route's serial is another, or the class has ended (404), press the hidden button: the
//   step view's first lines take the teacher's step, or run the whole page. A press that brought
//   nothing new within `retry` milliseconds is made again (a run may have swallowed it). No line, no
//   asking: the student explores on their own, or the class has ended. Installed once per page.
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
    let asking = false;
    let pressedFor = null;
    let pressedAt = 0;
    const ask = async () => {
      const line = document.querySelector("[data-bpe-poll]");
      const url = line && line.dataset.bpePoll;
      if (!url || asking) return;
      asking = true;
      try {
        const r = await fetch(url, { cache: "no-store", credentials: "same-origin" });
        let want = null;
        if (r.status === 200) want = String((await r.json()).serial);
        else if (r.status === 404) want = "ended";
        // Read the line again: a run may have drawn a newer one while the answer came.
        const now = document.querySelector("[data-bpe-poll]");
        if (want === null || !now || now.dataset.bpeSerial === want) return;
        if (want === pressedFor && Date.now() - pressedAt < c.retry) return;
        if (press()) {
          pressedFor = want;
          pressedAt = Date.now();
        }
      } catch (e) {
        // The server is away (a restart): the next tick asks again.
      } finally {
        asking = false;
      }
    };
    window.bpeFollowing = setInterval(ask, c.follow);
  }
})();
