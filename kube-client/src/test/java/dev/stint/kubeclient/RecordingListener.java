package dev.stint.kubeclient;

import java.net.http.WebSocket;
import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;

/** Records what a WebSocket listener is told, and never asks for more itself. */
class RecordingListener implements WebSocket.Listener {
  final List<String> events = new CopyOnWriteArrayList<>();

  @Override
  public void onOpen(WebSocket webSocket) {
    events.add("open");
  }

  @Override
  public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
    events.add(data.toString());
    return null;
  }

  @Override
  public CompletionStage<?> onClose(WebSocket webSocket, int statusCode, String reason) {
    events.add("close " + statusCode);
    return null;
  }

  @Override
  public void onError(WebSocket webSocket, Throwable error) {
    events.add("error " + error);
  }
}
