#!/usr/bin/env python3
"""A stand-in for Gemini's REST API and OpenAI-compatible servers, for splitbill's tests.

Standard library only. Listens on 127.0.0.1 (a free port, written to --port-file), answers
POST .../models/{model}:generateContent (Gemini) and POST .../chat/completions (OpenAI), and
appends one JSON line per request to --log: time, method, path, headers, body.

--script is a comma-separated list of behaviours, one per request in order; after the list runs
out every request gets "ok". Behaviours:
  ok            a suggestion for every bill_id (tip 18, or 12 when the notes mention "slow")
  ok-missing    like ok, but the last bill_id of the request is left out
  high          tip_percent 45 for every bill (outside the default 0..30 range)
  429:Ns        429 RESOURCE_EXHAUSTED with RetryInfo retryDelay "Ns" (per-minute quota)
  429-daily     429 with a PerDay quotaId
  429-bare      429 with no details at all
  503           503 UNAVAILABLE "The model is overloaded"
  500           500 INTERNAL
  404           404 NOT_FOUND for the model
  400-key       400 API_KEY_INVALID
  slow:N        sleep N seconds, then ok
  malformed     200 whose text is not JSON
  blocked       200 with promptFeedback.blockReason SAFETY and no candidates
  max-tokens    200 with finishReason MAX_TOKENS and no parts
  echo-key      500 whose message repeats the request's key (to test redaction)

A request with an image (a receipt for `scan --engine`) is answered with the next receipt of the
JSON list in --receipts (each the receipt JSON a model would give), after the behaviour's errors.
"""
import argparse
import json
import re
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

parser = argparse.ArgumentParser()
parser.add_argument("--port-file", required=True)
parser.add_argument("--log", required=True)
parser.add_argument("--script", default="")
parser.add_argument("--receipts", default="")
options = parser.parse_args()

script = [step for step in options.script.split(",") if step]
receipts = json.load(open(options.receipts)) if options.receipts else []
lock = threading.Lock()
started = time.monotonic()


def next_step():
    with lock:
        return script.pop(0) if script else "ok"


def bills_in(prompt):
    match = re.search(r"BEGIN BILL DATA\n(.*)\nEND BILL DATA", prompt, re.S)
    return json.loads(match.group(1)) if match else []


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def send_json(self, status, value):
        body = json.dumps(value, indent=2).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json; charset=UTF-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def google_error(self, code, status, message, details=None):
        error = {"code": code, "message": message, "status": status}
        if details is not None:
            error["details"] = details
        self.send_json(code, {"error": error})

    def do_POST(self):
        length = int(self.headers.get("Content-Length", "0"))
        raw = self.rfile.read(length)
        try:
            body = json.loads(raw)
        except ValueError:
            body = None
        with lock:
            with open(options.log, "a") as log:
                log.write(json.dumps({
                    "time": time.monotonic() - started,
                    "method": self.command,
                    "path": self.path,
                    "headers": {k.lower(): v for k, v in self.headers.items()},
                    "body": body,
                }) + "\n")
        openai = self.path.endswith("/chat/completions")
        image = False
        if openai:
            prompt = body["messages"][-1]["content"]
            if isinstance(prompt, list):
                image = any(part.get("type") == "image_url" for part in prompt)
                prompt = "".join(part.get("text", "") for part in prompt)
        else:
            parts = body["contents"][0]["parts"]
            image = any("inline_data" in part or "inlineData" in part for part in parts)
            prompt = parts[0]["text"]
        bills = bills_in(prompt)
        step = next_step()

        if step.startswith("slow:"):
            time.sleep(float(step.split(":")[1]))
            step = "ok"
        if step.startswith("429:"):
            delay = step.split(":")[1]
            return self.google_error(429, "RESOURCE_EXHAUSTED", "You exceeded your current quota. Please retry in %s." % delay, [
                {"@type": "type.googleapis.com/google.rpc.QuotaFailure", "violations": [{
                    "quotaMetric": "generativelanguage.googleapis.com/generate_content_free_tier_requests",
                    "quotaId": "GenerateRequestsPerMinutePerProjectPerModel-FreeTier", "quotaValue": "5"}]},
                {"@type": "type.googleapis.com/google.rpc.RetryInfo", "retryDelay": delay}])
        if step == "429-daily":
            return self.google_error(429, "RESOURCE_EXHAUSTED", "You exceeded your current quota.", [
                {"@type": "type.googleapis.com/google.rpc.QuotaFailure", "violations": [{
                    "quotaMetric": "generativelanguage.googleapis.com/generate_content_free_tier_requests",
                    "quotaId": "GenerateRequestsPerDayPerProjectPerModel-FreeTier", "quotaValue": "20"}]},
                {"@type": "type.googleapis.com/google.rpc.RetryInfo", "retryDelay": "37s"}])
        if step == "429-bare":
            return self.google_error(429, "RESOURCE_EXHAUSTED", "Resource has been exhausted (e.g. check quota).")
        if step == "503":
            return self.google_error(503, "UNAVAILABLE", "The model is overloaded. Please try again later.")
        if step == "500":
            return self.google_error(500, "INTERNAL", "An internal error has occurred.")
        if step == "404":
            return self.google_error(404, "NOT_FOUND", "models/x is not found for API version v1beta, or is not supported for generateContent.")
        if step == "400-key":
            return self.google_error(400, "INVALID_ARGUMENT", "API key not valid. Please pass a valid API key.", [
                {"@type": "type.googleapis.com/google.rpc.ErrorInfo", "reason": "API_KEY_INVALID",
                 "domain": "googleapis.com", "metadata": {"service": "generativelanguage.googleapis.com"}}])
        if step == "echo-key":
            key = self.headers.get("x-goog-api-key") or self.headers.get("authorization", "")
            return self.google_error(500, "INTERNAL", "internal error for key %s" % key)

        suggestions = []
        for bill in bills:
            percent = 45 if step == "high" else (12 if "slow" in bill["notes"].lower() else 18)
            suggestions.append({"bill_id": bill["bill_id"], "tip_percent": percent,
                                "reason": "stand-in: %s service" % ("slow" if percent == 12 else "good")})
        if step == "ok-missing" and suggestions:
            suggestions.pop()
        text = json.dumps({"suggestions": suggestions})
        if image:
            with lock:
                receipt = receipts.pop(0) if receipts else {}
            text = json.dumps(receipt)
        if step == "malformed":
            text = "Sure! Here are my tips: 18% for everyone."

        if openai:
            finish = "stop"
            return self.send_json(200, {"id": "chatcmpl-1", "object": "chat.completion", "created": 0,
                                        "model": body.get("model"), "choices": [{"index": 0, "finish_reason": finish,
                                        "message": {"role": "assistant", "content": text}}]})
        if step == "blocked":
            return self.send_json(200, {"promptFeedback": {"blockReason": "SAFETY", "safetyRatings": []}})
        if step == "max-tokens":
            return self.send_json(200, {"candidates": [{"content": {"role": "model"}, "finishReason": "MAX_TOKENS", "index": 0}]})
        return self.send_json(200, {
            "candidates": [{"content": {"parts": [{"text": text}], "role": "model"}, "finishReason": "STOP", "index": 0}],
            "usageMetadata": {"promptTokenCount": 31, "candidatesTokenCount": 51, "totalTokenCount": 82},
            "modelVersion": "stand-in", "responseId": "stand-in"})


server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
with open(options.port_file + ".tmp", "w") as port_file:
    port_file.write(str(server.server_address[1]))
import os
os.rename(options.port_file + ".tmp", options.port_file)
try:
    server.serve_forever()
except KeyboardInterrupt:
    pass
