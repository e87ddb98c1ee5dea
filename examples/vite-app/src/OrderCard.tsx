import type { RenderTool } from '@aguikit/ui';

type ToolCall = Parameters<RenderTool>[0];

interface Order {
  id: string;
  item: string;
  amount: number;
  currency: string;
  status: string;
}

/** The order in a `lookup_order` result, when it has the shape this app expects. */
function readOrder(call: ToolCall): Order | undefined {
  const content = call.result?.content;
  if (typeof content !== 'string') return undefined;
  try {
    const order = JSON.parse(content) as Partial<Order>;
    return typeof order.id === 'string' && typeof order.amount === 'number' && typeof order.currency === 'string'
      ? (order as Order)
      : undefined;
  } catch {
    return undefined;
  }
}

/** A card of this app's own for one tool: the order it looked up, a line while it runs, or why it has no order. */
export function OrderCard({ call }: { call: ToolCall }) {
  const order = readOrder(call);
  if (!order) {
    // Only a call still on its way is "looking up": a stopped, failed or refused one says so.
    const settled = call.status === 'failed' || call.status === 'denied' || call.status === 'cancelled' || call.result !== undefined;
    return (
      <p className="order-card" data-status={call.status}>
        {settled ? `No order to show (${call.failure ?? call.result?.error ?? call.status}).` : 'Looking up the order…'}
      </p>
    );
  }
  const price = new Intl.NumberFormat('en-US', { style: 'currency', currency: order.currency }).format(order.amount);
  return (
    <p className="order-card" data-order={order.id}>
      Order <strong>{order.id}</strong>: {order.item}, {price}, {order.status}
    </p>
  );
}
