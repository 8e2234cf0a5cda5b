// The Train page's "Send a big file" (ui/corpus_send.py): the browser sends the chosen file to the server's
// corpus upload route (server/corpus_route.py) straight from disk, so it never passes through Streamlit's
// uploader (which holds a whole file in the server's memory). XMLHttpRequest, not fetch: fetch reports no
// upload progress. The route's answer goes back to Python: the corpus's digest (Python opens the stored
// corpus) or the sentence of a refusal (Python shows it). Nothing here writes the server's text as HTML.

// The mounted component's latest arguments: a send outlives a rerun that calls this function again, and its
// answer goes to whichever mount is current when it arrives.
let current = null;
let request = null;

const part = (selector) => current.parentElement.querySelector(selector);

function say(text, loaded, total) {
  const bar = part('progress');
  bar.hidden = total === undefined;
  if (total !== undefined) {
    bar.max = total || 1;
    bar.value = loaded;
  }
  part('.status').textContent = text;
}

function answer(name, status, body) {
  let sent = null;
  try {
    sent = status === 200 ? JSON.parse(body) : null;
  } catch (e) {
    sent = null;
  }
  if (sent && sent.digest) {
    say(`Sent ${name}: it is stored on the server.`);
    current.setTriggerValue('sent', { digest: sent.digest, name });
    return;
  }
  const sentence =
    status === 404 || status === 405
      ? 'This server has no upload route (it was started with app.py): use the uploader above, ' +
        'or start the app with serve.py.'
      : body.trim() || `The server answered ${status}: send the file again.`;
  say('');
  current.setTriggerValue('refused', { sentence });
}

function send(file) {
  const { data } = current;
  const name = file.name;
  if (file.size > data.maxBytes) {
    // The server would refuse it too, once the browser had started sending it: say so at once.
    current.setTriggerValue('refused', {
      sentence:
        `The file ${JSON.stringify(name)} is ${(file.size / 1e6).toFixed(1)} MB; the limit is ` +
        `${data.limit} of text. Upload a part of it, or train it with the command line.`,
    });
    return;
  }
  if (request) request.abort();
  const xhr = new XMLHttpRequest();
  request = xhr;
  xhr.open('POST', `${data.path}?name=${encodeURIComponent(name)}`);
  say(`Sending ${name}…`, 0, file.size);
  xhr.upload.onprogress = (e) => {
    say(`Sending ${name}: ${Math.floor((100 * e.loaded) / (e.total || 1))}%`, e.loaded, e.total);
  };
  xhr.upload.onload = () => say(`Checking and storing ${name}…`);
  xhr.onload = () => {
    request = null;
    answer(name, xhr.status, xhr.responseText);
  };
  xhr.onerror = () => {
    request = null;
    say('');
    current.setTriggerValue('refused', {
      sentence: 'The connection to the server was lost while the file was sent: send it again.',
    });
  };
  xhr.send(file);
}

export default function (component) {
  current = component;
  const input = part('input[type="file"]');
  input.onchange = () => {
    const file = input.files[0];
    input.value = '';
    if (file) send(file);
  };
}
