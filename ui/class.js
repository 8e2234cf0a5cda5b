// The live class in the browser (ui/classroom.py), two jobs given by window.bpeClass:
// keep: the teacher's "code.token" kept in a cookie this browser sends back when the page is
//   reloaded (st.context.cookies reads it), so a reload does not lose the class; "" forgets it.
//   The cookie goes to this app's own server only, never into a link.
// sync: a following student's poll saw the teacher move: press the step view's hidden button, so
//   only the step view runs again (a fragment), not the whole page.
(() => {
  const c = window.bpeClass || {};
  if (typeof c.keep === "string") {
    const age = c.keep ? c.maxAge : 0;
    document.cookie = `${c.cookie}=${c.keep}; path=/; max-age=${age}; SameSite=Strict`;
  }
  if (c.sync) {
    const button = document.querySelector(".st-key-class_sync button");
    if (button) button.click();
  }
})();
