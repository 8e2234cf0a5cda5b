"""What the app needs from the serving process, kept out of the page folder: training in a process
pool (``jobs``), socket options (``tcp``), the garbage collector's frozen heap (``heap``) and what
runs once when the server starts (``startup``).

This file imports nothing, so a pool worker that unpickles ``server.jobs.train_job`` imports only
``server.jobs`` and ``bpe``, never Streamlit.
"""
