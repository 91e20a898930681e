"""amldoctor rehearse online: start azmlinfsrv bound to 127.0.0.1 only.

The inference server hands gunicorn its DEFAULT_HOST (0.0.0.0); setting it before the
server reads it keeps the rehearsal off every other interface. gunicorn 25.1 and newer
also open a control socket under ~/.gunicorn unless told not to.
"""
import os
import sys

import azureml_inference_server_http.constants as constants

constants.DEFAULT_HOST = "127.0.0.1"
try:
    import gunicorn.config as gunicorn_config

    if hasattr(gunicorn_config, "ControlSocketDisable"):
        extra = os.environ.get("GUNICORN_CMD_ARGS", "")
        os.environ["GUNICORN_CMD_ARGS"] = (extra + " --no-control-socket").strip()
except ImportError:
    pass

from azureml_inference_server_http.amlserver import run  # noqa: E402

sys.argv[0] = "azmlinfsrv"
sys.exit(run())
