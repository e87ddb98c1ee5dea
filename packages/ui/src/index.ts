export type { RenderTool, ToolDisplayStatus } from './ToolCall.js';
export { ToolCall, ToolCallCard, ToolStatusBadge, toolDisplayStatus, toolRenderers } from './ToolCall.js';
